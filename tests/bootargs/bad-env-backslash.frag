ftrace=function trace_clock=local\
