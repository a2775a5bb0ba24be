/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM eb

#if !defined(_EB_TP_H) || defined(TRACE_HEADER_MULTI_READ)
#define _EB_TP_H

#include <linux/tracepoint.h>

TRACE_EVENT(eb_event,
	TP_PROTO(int a, unsigned long b, const char *c),
	TP_ARGS(a, b, c),
	TP_STRUCT__entry(
		__field(int, a)
		__field(unsigned long, b)
		__string(c, c)
	),
	TP_fast_assign(
		__entry->a = a;
		__entry->b = b;
		__assign_str(c);
	),
	TP_printk("a %d b %lu c %s", __entry->a, __entry->b, __get_str(c))
);

#endif /* _EB_TP_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE eb_tp
#include <trace/define_trace.h>
