# tests/yocto.sh: stand-in (the recipe inherits it; nothing of it is checked)
