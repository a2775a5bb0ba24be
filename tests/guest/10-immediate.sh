#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Immediate values in modules (tests/modules/imm_provider, imm_consumer):
# a module's sites take the current value at load, follow later updates,
# survive unload/reload, and read a variable exported by another module;
# no kprobe gets on a coming module's site (imm_kprobe_window); a site in
# the __exit text of built-in code is left alone after boot.
# shellcheck source=ktap.sh
. /tests/ktap.sh

m=/lib/test-modules
p=/sys/module/imm_provider/parameters
c=/sys/module/imm_consumer/parameters

expect() { # NAME FILE VALUE
	_got=$(cat "$2" 2>&1)
	if [ "$_got" = "$3" ]; then ktap_ok "$1"; else ktap_fail "$1" "$2: got '$_got', want '$3'"; fi
}

sites_ok() { # NAME: every patched site of both variables matches its value
	_s=$(cat $c/sites_ok 2>&1)
	case $_s in
	generic) ktap_skip "$1" "generic immediate values" ;;
	*bad=0) case $_s in *mov=0*) ktap_fail "$1" "no site found: $_s" ;; *) ktap_ok "$1" ;; esac ;;
	*) ktap_fail "$1" "$_s" ;;
	esac
}

# The immediate_init_mem KUnit suite again, now that init memory is gone.
# Its KTAP goes to the results file only: the console keeps one copy of
# each KUnit case (an oops still shows).
init_mem_rerun() {
	_d=/sys/kernel/debug/kunit/immediate_init_mem
	_lvl=$(cut -f1 /proc/sys/kernel/printk)
	echo 4 > /proc/sys/kernel/printk
	if ! echo 1 > $_d/run 2>/dev/null; then
		echo "$_lvl" > /proc/sys/kernel/printk
		ktap_fail exit_text_after_boot "cannot run $_d"
		return
	fi
	echo "$_lvl" > /proc/sys/kernel/printk
	_r=$(cat $_d/results)
	case $_r in
	*"ok 1 immediate_exit_text_test # SKIP"*) ktap_skip exit_text_after_boot "generic immediate values" ;;
	*"not ok 1 immediate_exit_text_test"*) ktap_fail exit_text_after_boot "$_r" ;;
	*"ok 1 immediate_exit_text_test"*) ktap_ok exit_text_after_boot ;;
	*) ktap_fail exit_text_after_boot "$_r" ;;
	esac
}

w=/sys/module/imm_kprobe_window/parameters/result
kprobe_window() {
	_r=$(cat $w 2>&1)
	case $_r in
	-16) ktap_ok kprobe_on_coming_module_site_refused ;;
	-2) ktap_skip kprobe_on_coming_module_site_refused "generic immediate values" ;;
	*) ktap_fail kprobe_on_coming_module_site_refused "register_kprobe() returned $_r, want -16" ;;
	esac
}

ktap_begin immediate_modules 23
init_mem_rerun
ktap_check window_load insmod $m/imm_kprobe_window.ko
ktap_check provider_load insmod $m/imm_provider.ko
expect provider_initial $p/value 5
ktap_check provider_set_before_consumer sh -c "echo 42 > $p/value"
ktap_check consumer_load insmod $m/imm_consumer.ko
kprobe_window
expect consumer_sees_value_set_before_load $c/read 42
expect consumer_init_text_site $c/init_read 42
sites_ok consumer_sites_match
ktap_check provider_update_while_loaded sh -c "echo -123456 > $p/value"
expect consumer_follows_update $c/read -123456
expect provider_reads_update $p/value -123456
expect consumer_local_initial $c/local -7
ktap_check consumer_local_set sh -c "echo 0 > $c/local"
expect consumer_local_if_false $c/local_if 0
ktap_check consumer_local_set_big sh -c "echo 1099511627776 > $c/local || echo 65536 > $c/local"
expect consumer_local_if_true $c/local_if 1
sites_ok consumer_sites_match_after_updates
ktap_check consumer_unload rmmod imm_consumer
ktap_check provider_update_without_consumer sh -c "echo 77 > $p/value"
ktap_check consumer_reload sh -c "insmod $m/imm_consumer.ko && test \$(cat $c/read) = 77 && test \$(cat $c/local) = -7"
ktap_check unload_all sh -c "rmmod imm_consumer && rmmod imm_provider && rmmod imm_kprobe_window"
ktap_end
