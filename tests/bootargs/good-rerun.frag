kprobe_event=p:exec,kernel_execve,filename=+0(%r4):string,argv=%r5:x64,envp=%r6:u64,comm=$comm;p:openat,do_sys_openat2,dfd=%r4:s32,filename=+0(%r5):string,how=%r6:x64
