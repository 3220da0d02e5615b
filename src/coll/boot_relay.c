/*
 * The bootstrap for a forked child (the NCCL backend's): the child never touches the network.
 * It asks its parent over a socketpair, in net/frame frames, for each barrier, sum, broadcast
 * and gather; the parent, which holds the rendezvous (whose I/O thread a fork would not carry),
 * runs the collective and answers with its outcome. A peer that dies is thus named by the
 * parent, and the child's copy of a control socket cannot hide its parent's death from the others.
 *
 * One request at a time, the child waiting for each answer: {"op", "data"} with the bytes in
 * hex, answered by {"ok": true, "data"} or {"ok": false, "code", "msg"}. "error" is not answered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "coll/boot_int.h"
#include "net/frame.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* Gathers of world * nlocal device records are the largest; a frame of this fits 4096 ranks. */
#define RELAY_CAP ((size_t)64 << 20)

void boot_become_child(struct boot *b, int relay_fd)
{
	/* plain close, no goodbye: the parent goes on using the very same connections */
	if (b->rdv)
		rdv_close_inherited(b->rdv);
	b->rdv = NULL; /* the parent's: never freed here (its I/O thread is not in this process) */
	if (b->lfd >= 0)
		close(b->lfd);
	b->lfd = -1;
	b->relay = relay_fd;
}

int boot_relay_call(struct boot *b, const char *op, const void *out, size_t olen, void *in,
		    size_t ilen, struct err *e)
{
	/* the parent's own collective is bounded by the timeout; this bounds a parent gone mute */
	int64_t deadline = boot_deadline_in(b->timeout_ms * 2 + 5000);
	json_t *req = json_object(), *ans = NULL;
	int rc = -1;

	json_object_set_new(req, "op", json_string(op));
	json_object_set_new(req, "data", boot_hex(out, olen));
	if (frame_write(b->relay, req, RELAY_CAP, deadline, e) != FRAME_OK) {
		json_decref(req);
		return err_prefix(e, "the bench parent");
	}
	json_decref(req);
	if (!strcmp(op, "error"))
		return 0;
	if (frame_read(b->relay, RELAY_CAP, deadline, &ans, e) != FRAME_OK)
		return err_prefix(e, "the bench parent");
	if (json_is_true(json_object_get(ans, "ok"))) {
		if (boot_unhex(json_object_get(ans, "data"), in, ilen) == 0)
			rc = 0;
		else
			err_set(e, ERR_INTERNAL, "the bench parent answered %s with %s", op,
				"bytes of the wrong length");
	} else {
		const char *m = json_string_value(json_object_get(ans, "msg"));
		json_int_t c = json_integer_value(json_object_get(ans, "code"));
		err_set(e, c > 0 ? (enum err_code)c : ERR_PEER, "%s", m ? m : "?");
	}
	json_decref(ans);
	return rc;
}

int boot_relay_serve(struct boot *b, int fd, struct err *e)
{
	json_t *req = NULL, *ans;
	const char *op, *hex;
	unsigned char *buf, *all = NULL;
	size_t len, olen;
	struct err ce = ERR_INIT;
	int rc;

	switch (frame_read(fd, RELAY_CAP, boot_deadline_in(5000), &req, e)) {
	case FRAME_OK:
		break;
	case FRAME_EOF:
		return 1;
	default:
		return err_prefix(e, "the bench child"), -1;
	}
	op = json_string_value(json_object_get(req, "op"));
	hex = json_string_value(json_object_get(req, "data"));
	if (!op || !hex || strlen(hex) % 2) {
		json_decref(req);
		return err_set(e, ERR_INTERNAL, "the bench child sent a malformed request"), -1;
	}
	len = strlen(hex) / 2;
	buf = xmalloc(len ? len : 1);
	boot_unhex(json_object_get(req, "data"), buf, len);
	olen = len;
	if (!strcmp(op, "error")) {
		char msg[256];
		snprintf(msg, sizeof(msg), "%.*s", (int)len, (const char *)buf);
		boot_report_error(b, msg);
		free(buf);
		json_decref(req);
		return 0;
	}
	if (!strcmp(op, "barrier")) {
		rc = boot_barrier(b, &ce);
	} else if (!strcmp(op, "sum") && len % 8 == 0 && len <= 64 * 8) {
		double v[64];
		memcpy(v, buf, len);
		rc = boot_sum(b, v, len / 8, &ce);
		memcpy(buf, v, len);
	} else if (!strcmp(op, "bcast")) {
		rc = boot_bcast(b, buf, len, &ce);
	} else if (!strcmp(op, "gather")) {
		if (b->rank == 0) {
			all = xmalloc(len * (size_t)b->world + 1);
			olen = len * (size_t)b->world;
		}
		rc = boot_gather(b, buf, len, all, &ce);
		if (!all)
			olen = 0;
	} else {
		free(buf);
		json_decref(req);
		return err_set(e, ERR_INTERNAL, "the bench child asked for '%s'", op), -1;
	}
	json_decref(req);
	ans = json_object();
	json_object_set_new(ans, "ok", json_boolean(rc == 0));
	if (rc == 0) {
		json_object_set_new(ans, "data", boot_hex(all ? all : buf, olen));
	} else {
		json_object_set_new(ans, "code", json_integer(ce.code));
		json_object_set_new(ans, "msg", json_string(ce.msg));
	}
	free(all);
	free(buf);
	rc = frame_write(fd, ans, RELAY_CAP, boot_deadline_in(5000), e) == FRAME_OK ? 0 : -1;
	json_decref(ans);
	return rc < 0 ? err_prefix(e, "the bench child"), -1 : 0;
}
