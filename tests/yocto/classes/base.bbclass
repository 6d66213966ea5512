# tests/yocto.sh: the stand-in for oe-core's bitbake.conf and
# base.bbclass that bitbake's parser needs: the names and the class
# override the real ones set (no task runs here)
BPN = "${@bb.parse.vars_from_file(d.getVar('FILE', False), d)[0] or 'defaultpkgname'}"
PN ?= "${BPN}"
CLASSOVERRIDE ?= "class-target"
OVERRIDES = "${CLASSOVERRIDE}"
