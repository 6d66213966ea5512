/*
 * The library tests/ustack/dlopen.c dlopen()s (/lib/libuplugin.so,
 * -shared -fPIC -O2 -g): plugin_apply -> plugin_step (static) -> the
 * program's callback, each doing work after its call so that no call is
 * a tail call and every frame stays on the stack.
 */
volatile int plugin_sink;

__attribute__((noinline, noclone)) static int plugin_step(int (*cb)(int), int x)
{
	int r = cb(x + 1);

	plugin_sink -= r;
	return r * 2;
}

int plugin_apply(int (*cb)(int), int x)
{
	int r = plugin_step(cb, x * 2);

	plugin_sink ^= r;
	return r + 1;
}
