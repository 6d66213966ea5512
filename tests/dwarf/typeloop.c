/*
 * The three type loops of typeloop.awk, one function each, built apart
 * (-DLOOP_CONST, -DLOOP_PTR, -DLOOP_ARRAY) so that each program has only
 * the one const_type or array_type the damage is aimed at.
 */
#if defined(LOOP_CONST)
int dw_loop(const short *p)
{
	return *p + 1;
}
#elif defined(LOOP_PTR)
int dw_loop(short *const *q)
{
	return **q + 1;
}
#else
struct holder {
	char a[4];
};

int dw_loop(struct holder *h)
{
	return h->a[1] + 1;
}
#endif
void __start(void)
{
}
