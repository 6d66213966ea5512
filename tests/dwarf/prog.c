// SPDX-License-Identifier: GPL-2.0
/*
 * tests/dwarf/prog.c: a user program whose -g -O2 DWARF the dwarf group
 * (tests/dwarf.test.sh) and the boot of tests/kernel/dwarf.sh probe by
 * C names: parameters in registers, a struct through a pointer (an
 * array, bitfields, a nested struct, a string pointer, a linked item),
 * a parameter the compiler drops, a struct passed by value, a global.
 * It prints a checksum so the calls cannot be folded away.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
	int x, y;
};

struct item {
	char name[8];
	int id;
	unsigned int kind : 3;
	unsigned int hot : 1;
	unsigned int level : 12;
	struct point pos;
	const char *label;
	struct item *next;
};

int dw_calls;		/* a global, read through @+OFFSET in a uprobe */

/* it->name, it->id, it->kind, it->pos.y, it->label, it->next->name */
__attribute__((noinline)) int dw_item(struct item *it, int scale, const char *tag)
{
	int sum = it->id * scale + it->pos.x - it->pos.y + (int)strlen(tag);

	if (it->hot)
		sum += it->kind * it->level;
	dw_calls++;
	return sum + (it->next ? it->next->id : 0) + (int)strlen(it->label);
}

/*
 * "unused" is never read: -O2 clones the static function without it
 * (dw_unused.isra.0 or .constprop.0), and its DWARF keeps no location.
 */
static __attribute__((noinline)) int dw_unused(int used, int unused)
{
	(void)unused;
	return used * 3 + dw_calls;
}

/* a struct passed by value: in registers a0/a1 on o32 */
__attribute__((noinline)) long dw_point(struct point p)
{
	return (long)p.x * 7 + p.y;
}

int main(int argc, char **argv)
{
	static struct item tail = { "tail", 7, 1, 0, 2, { 1, 2 }, "last", NULL };
	struct item head = { "head", 42, 5, 1, 300, { 10, -3 }, "first", &tail };
	long sum = 0;
	int i;

	if (argc > 1)
		strncpy(head.name, argv[1], sizeof(head.name) - 1);
	for (i = 1; i <= 3; i++) {
		head.id = 40 + i;
		sum += dw_item(&head, i, "x");
		sum += dw_unused(i, argc);
		sum += dw_point(head.pos);
	}
	sum += dw_item(&tail, 1, "tail");
	printf("dw: sum %ld calls %d\n", sum, dw_calls);
	return 0;
}
