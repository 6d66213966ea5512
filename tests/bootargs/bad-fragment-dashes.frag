ftrace=function ftrace_filter=register_netdevice,register_netdev,bond_create,bonding_init trace_buf_size=1M trace_options=func_stack_trace -- x
