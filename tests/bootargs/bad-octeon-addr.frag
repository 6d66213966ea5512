trace_event=sched:sched_process_exec kprobe_event=p:open_entry,do_sys_openat2,path=+0(%r5):string;r:open_ret,do_sys_openat2,ret=$retval:s32
