#!/bin/bash
# The .deb in a clean chroot of the oldest Debian the mirror serves (packaging/chroot.sh; skipped
# when the archive is unreachable): dpkg -i, then ncclcheck --version, `man ncclcheck-cluster`
# renders the cluster verb's help, bash completion completes verbs, sub-verbs and options; dpkg
# --purge leaves nothing behind (the cached chroot stays clean for the next run).
set -u
. "$SRCDIR/tests/integration/lib_package.sh"
need_root
portable_artefacts
old_root bullseye

cp "$DEB" "$ROOT/tmp/ncclcheck.deb"
in_root dpkg --purge ncclcheck >/dev/null 2>&1
out=$(in_root dpkg -i /tmp/ncclcheck.deb 2>&1); rc=$?
expect_rc 0 $rc "dpkg -i in a clean $(cat "$ROOT/etc/debian_version") chroot $out"
expect_match "$(in_root ncclcheck --version 2>&1)" "^$("$NCCLCHECK" --version)\$" "ncclcheck --version"
page=$(in_root env MANWIDTH=100 MANPAGER=cat PAGER=cat man ncclcheck-cluster 2>&1)
expect_match "$page" "NCCLCHECK-CLUSTER\\(1\\)" "man ncclcheck-cluster renders"
expect_match "$page" "--token-file" "the page holds the verb's options"
for v in node explain lab bench; do
	in_root sh -c "man -w ncclcheck-$v" >/dev/null 2>&1 && pass "man page ncclcheck-$v" || fail "no man page ncclcheck-$v"
done
complete() { # WORDS...: what bash completion offers for the last word
	in_root bash -c '. /usr/share/bash-completion/bash_completion 2>/dev/null
		. /usr/share/bash-completion/completions/ncclcheck
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ncclcheck; echo "${COMPREPLY[*]}"' bash "$@"
}
expect_match "$(complete ncclcheck cl)" '^cluster$' "bash: 'ncclcheck cl' completes to cluster"
expect_match "$(complete ncclcheck "")" 'node.*cluster.*explain' "bash: every verb"
expect_match "$(complete ncclcheck cluster --no-)" '--no-python.*--no-ports|--no-ports.*--no-python' \
	"bash: cluster's options"
expect_match "$(complete ncclcheck lab "")" '(^| )up( |$)' "bash: lab's sub-verbs"
[ -s "$ROOT/usr/share/zsh/vendor-completions/_ncclcheck" ] && pass "zsh completion installed" ||
	fail "no zsh completion"
out=$(in_root dpkg --purge ncclcheck 2>&1); rc=$?
expect_rc 0 $rc "dpkg --purge"
[ ! -e "$ROOT/usr/bin/ncclcheck" ] && pass "purge removes the binary" || fail "binary left after purge"
rm -f "$ROOT/tmp/ncclcheck.deb"
finish
