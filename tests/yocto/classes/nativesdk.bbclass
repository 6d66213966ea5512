# tests/yocto.sh: stand-in for oe-core's nativesdk.bbclass: its name and class override
PN = "nativesdk-${BPN}"
CLASSOVERRIDE = "class-nativesdk"
