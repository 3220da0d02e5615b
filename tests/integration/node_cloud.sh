#!/bin/bash
# `ncclcheck node` decides the cloud offline: /sys pointed at fixture trees of each provider's DMI
# strings (tests/fixtures/sys/cloud-*), a container without DMI but with an EFA device, no /sys at
# all; a host name in its own UTS namespace for the AutoDL heuristic; and the real machine.
set -u
. "$SRCDIR/tests/integration/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
q() { printf '%s' "$doc" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
node() { NCCLCHECK_SYS_ROOT="$FIXTURES/sys/$1" "$NCCLCHECK" node --no-python --json; }

for t in "cloud-aws-nitro aws dmi sys_vendor 'Amazon EC2'" \
	 "cloud-aws-swapped aws dmi 45E12AEC' .EC2, byte-swapped." \
	 "cloud-aws-xen aws dmi /sys/hypervisor/uuid" \
	 "cloud-gcp gcp dmi Google Compute Engine" \
	 "cloud-azure azure dmi 7783-7084-3265-9085-8269-3286-77" \
	 "cloud-oci oci dmi OracleCloud.com" \
	 "cloud-alibaba alibaba dmi Alibaba Cloud ECS" \
	 "cloud-container-efa aws device efa_0"; do
	set -- $t
	tree=$1 want=$2 method=$3
	shift 3
	doc=$(node "$tree")
	expect_match "$(q "d['facts']['cloud']['provider']")" "^$want\$" "$tree: provider $want"
	expect_match "$(q "d['facts']['cloud']['method']")" "^$method\$" "$tree: decided by $method"
	expect_match "$(q "d['facts']['cloud']['evidence']")" "$*" "$tree: evidence names '$*'"
done

doc=$(node cloud-aws-nitro)
expect_match "$(q "d['facts']['cloud']['instance_type']")" "^p5.48xlarge$" "Nitro's product_name is the instance type"
expect_match "$(q "d['facts']['cloud']['efa']")" "rdmap16s27" "the EFA device is listed"
expect_match "$(q "sorted(f['id'] for f in d['findings'] if f['id'].startswith('cloud.'))")" \
	"cloud.aws.efa_plugin.*cloud.aws.placement.*cloud.aws.security_group" "AWS tips with EFA"
expect_no_match "$doc" "EC2E1916" "the UUID stays out of the output"
expect_match "$(q "d['facts']['cloud']['instance_id']")" "^i-0af01c0123456789a$" "Nitro's board_asset_tag is the instance id"
expect_match "$(q "[x for f in d['findings'] if f['id'] == 'cloud.aws.placement' for x in f['fix']]")" \
	"describe-instances --instance-ids i-0af01c0123456789a " "the placement fix names this instance"
expect_match "$(NCCLCHECK_SYS_ROOT="$FIXTURES/sys/cloud-aws-nitro" "$NCCLCHECK" node --no-python)" \
	"provider +Amazon Web Services EC2, by dmi" "the inventory has a Cloud section"

doc=$(node cloud-unknown)
expect_match "$(q "d['facts']['cloud']['provider']")" "^unknown$" "a QEMU VM is no known cloud"
expect_match "$(q "d['facts']['cloud']['why']")" "sys_vendor 'QEMU'" "and says what it saw"
expect_no_match "$(q "[f['id'] for f in d['findings']]")" "cloud\\.(aws|gcp|azure|oci|alibaba|autodl)" "no cloud tips without a cloud"

doc=$(node cloud-none)
expect_match "$(q "d['facts']['cloud']['dmi']['unknown']")" "no '.*class/dmi/id'" "no DMI: unknown with the reason"
expect_match "$(q "d['facts']['cloud']['provider']")" "^unknown$" "and no provider"

if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -u true 2>/dev/null; then
	doc=$(NCCLCHECK_SYS_ROOT="$FIXTURES/sys/cloud-none" unshare -u sh -c 'hostname autodl-container-6b1c0e9a7d-4f2a1c3e && "$0" node --no-python --json' "$NCCLCHECK")
	expect_match "$(q "d['facts']['cloud']['provider']")" "^autodl$" "AutoDL by its container host name"
	expect_match "$(q "d['facts']['cloud']['evidence']")" "a heuristic" "said to be a heuristic"
	expect_match "$(q "[f['id'] for f in d['findings']]")" "cloud.autodl.private_nic" "with the private-NIC tip"
else
	echo "skip: the host-name case needs root and unshare -u"
fi

# the real machine: whatever it is, an answer and no network access needed
doc=$("$NCCLCHECK" node --no-python --json)
expect_match "$(q "d['facts']['cloud']['provider']")" "^(aws|gcp|azure|oci|alibaba|autodl|unknown)$" "the real machine gets a provider or unknown"
expect_match "$(q "d['facts']['timings_ms']['cloud']")" "^[0-9]+$" "the cloud probe's time is recorded"
finish
