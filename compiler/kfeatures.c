// SPDX-License-Identifier: GPL-2.0
/*
 * What the target kernel's probe events take beyond 6.1's fetchargs:
 * the C names of a function's arguments, resolved by the kernel from its
 * own BTF, and $argN in a return probe.  Each answer says where it comes
 * from, best evidence first: the tracefs README of a capture (the
 * parser's own syntax, kernel/trace/trace.c readme_msg), the config,
 * then the version alone (assumed).  Sources: kernel/trace/Kconfig
 * PROBE_EVENTS_BTF_ARGS, trace_probe.c parse_btf_arg(),
 * Documentation/trace/fprobetrace.rst "BTF arguments" and kprobetrace.rst
 * "Function arguments at kretprobe" (6.12.117); docs/kernel-features.md.
 */
#include <string.h>

#include "compiler.h"
#include "kernel.h"

/*
 * Whether the arch selects HAVE_FUNCTION_ARG_ACCESS_API (its row's
 * ARG_ACCESS: x86, arm64, riscv in arch/ARCH/Kconfig of 6.12.117; MIPS
 * in no release): $argN and BTF names need regs_get_kernel_argument().
 */
static bool arg_access_api(const struct target *t)
{
	return t->abi->quirks->arg_access;
}

int kernel_btf_names(const struct target *t, bool fields, const char **why)
{
	const struct kernel *k = t->k;
	int cfg;

	if (!arg_access_api(t)) {
		*why = xasprintf("%s selects no HAVE_FUNCTION_ARG_ACCESS_API, which PROBE_EVENTS_BTF_ARGS depends on",
				 t->abi->arch);
		return 0;
	}
	if (!kernel_at_least(t, 6, fields ? 6 : 5)) {
		*why = xasprintf("kernel %d.%d: BTF argument names are 6.5+, their fields (->, .) 6.6+",
				 t->kmajor, t->kminor);
		return 0;
	}
	if (k && k->readme) {
		const char *want = fields ? "<argname>[->field" : "<argname>";

		if (strstr(k->readme, want)) {
			*why = xasprintf("the kernel's tracefs README (the capture) lists %s", want);
			return 1;
		}
		*why = xasprintf("the kernel's tracefs README (the capture) has no %s: no PROBE_EVENTS_BTF_ARGS", want);
		return 0;
	}
	cfg = k ? kconfig_tristate(k, "CONFIG_PROBE_EVENTS_BTF_ARGS") : -1;
	if (cfg >= 0) {
		*why = cfg ? "CONFIG_PROBE_EVENTS_BTF_ARGS=y in the kernel's config" :
			     "the kernel's config has no CONFIG_PROBE_EVENTS_BTF_ARGS";
		return cfg;
	}
	*why = "assumed: no capture README or config says (PROBE_EVENTS_BTF_ARGS defaults to y with DEBUG_INFO_BTF, as in Debian's amd64 and arm64 6.12)";
	return 1;
}

int kernel_ret_args(const struct target *t, const char **why)
{
	const struct kernel *k = t->k;
	static const char want[] = "kernel return probes support: $retval, $arg<N>";

	if (!arg_access_api(t)) {
		*why = xasprintf("%s selects no HAVE_FUNCTION_ARG_ACCESS_API", t->abi->arch);
		return 0;
	}
	if (!kernel_at_least(t, 6, 10)) {
		*why = xasprintf("kernel %d.%d: $argN in a return probe is 6.10+",
				 t->kmajor, t->kminor);
		return 0;
	}
	if (k && k->readme) {
		if (strstr(k->readme, want)) {
			*why = "the kernel's tracefs README (the capture) says \"return probes support: $retval, $arg<N>\"";
			return 1;
		}
		*why = "the kernel's tracefs README (the capture) has no $arg<N> for return probes";
		return 0;
	}
	*why = "by the version (no capture README says)";
	return 1;
}
