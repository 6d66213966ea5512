ftrace=function "--" trace_event=sched:*
