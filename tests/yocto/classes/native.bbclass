# tests/yocto.sh: stand-in for oe-core's native.bbclass: its name and class override
PN = "${BPN}-native"
CLASSOVERRIDE = "class-native"
