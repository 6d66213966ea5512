#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/yocto.sh: meta-probecc parsed by bitbake's own parser (lib/bb of
a bitbake checkout, argv[1]), with stand-ins for oe-core's classes
(tests/yocto/classes): conf/layer.conf as bitbake parses a layer, then
the recipe and its BBCLASSEXTEND variants; prints, per variant, what
the checks in tests/yocto.sh compare: the class override, PACKAGECONFIG,
the make arguments its flags give, DEPENDS, PACKAGES, the agent package's
FILES and whether the target-only parts of do_compile and do_install are
there; and PROBECC_ARCH for each TARGET_ARCH.  A syntax error in either
file is bitbake's own exception (exit 1)."""
import os
import sys

bitbake, layer, stubs = sys.argv[1:4]
sys.path.insert(0, os.path.join(bitbake, 'lib'))
import bb.data          # noqa: E402
import bb.parse         # noqa: E402
import bb.utils         # noqa: E402

d = bb.data.init()
d.setVar('BBPATH', stubs)
d.setVar('LAYERDIR', layer)
bb.parse.handle(os.path.join(layer, 'conf/layer.conf'), d)
# as the cooker does after a layer.conf: ${LAYERDIR} is made absolute
bb.data.expandKeys(d)
for k in list(d.keys()):
    v = d.getVar(k, False)
    if isinstance(v, str) and '${LAYERDIR}' in v:
        d.setVar(k, v.replace('${LAYERDIR}', layer))
d.delVar('LAYERDIR')
d.setVar('BBPATH', stubs + ':' + d.getVar('BBPATH'))

recipe = os.path.join(layer, 'recipes-devtools/probecc/probecc_git.bb')
import bb.siggen       # noqa: E402
bb.parse.siggen = bb.siggen.init(d)   # as the cooker does (the noop handler)
# the configuration's INHERIT of base, then a recipe, as the cooker does
d.setVar('__bbclasstype', 'global')
bb.parse.BBHandler.inherit('base', 'configuration INHERITs', 0, d)
d.setVar('__bbclasstype', 'recipe')
variants = bb.parse.handle(recipe, d)


def confargs(v):
    """PACKAGECONFIG's make arguments and DEPENDS, as base.bbclass makes
    them from the PACKAGECONFIG[...] flags."""
    on = (v.getVar('PACKAGECONFIG') or '').split()
    args, deps = [], []
    for f, val in sorted((v.getVarFlags('PACKAGECONFIG') or {}).items()):
        if f in ('doc', 'defaultval') or f.startswith('_'):
            continue
        items = (val or '').split(',')
        items += [''] * (4 - len(items))
        args.append(items[0] if f in on else items[1])
        if f in on:
            deps += items[2].split()
    return ' '.join(a for a in args if a), deps


for name in sorted(variants):
    v = variants[name]
    args, deps = confargs(v)
    print('variant %s' % (name or 'target'))
    print('  CLASSOVERRIDE %s' % v.getVar('CLASSOVERRIDE'))
    print('  PACKAGECONFIG "%s"' % (v.getVar('PACKAGECONFIG') or ''))
    print('  make %s' % args)
    print('  DEPENDS %s' % ' '.join((v.getVar('DEPENDS') or '').split() + deps))
    print('  PACKAGES %s' % v.getVar('PACKAGES'))
    pn = v.getVar('PN')
    print('  PN %s' % pn)
    print('  FILES:%s-agent %s' % (pn, v.getVar('FILES:%s-agent' % pn)))
    print('  INSANE_SKIP:%s-agent %s' % (pn, v.getVar('INSANE_SKIP:%s-agent' % pn)))
    print('  SRC_URI %s' % v.getVar('SRC_URI'))
    comp = v.getVar('do_compile') or ''
    inst = v.getVar('do_install') or ''
    print('  do_compile agent %s' % ('initramfs/agent-' in comp))
    print('  do_install agent %s' % ('/probecc/init' in inst))
    print('  BBCLASSEXTEND %s' % v.getVar('BBCLASSEXTEND'))
    if not name:
        for a in ('mipsel', 'mips64el', 'mips64', 'x86_64', 'aarch64', 'riscv64', 'arm'):
            v.setVar('TARGET_ARCH', a)
            print('  TARGET_ARCH %s PROBECC_ARCH "%s" %s' %
                  (a, v.getVar('PROBECC_ARCH'), v.getVar('PROBECC_ARCH_CC')))
