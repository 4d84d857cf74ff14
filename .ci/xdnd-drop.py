#!/usr/bin/python3
"""A minimal XDND drag source for the end-to-end test of drag and drop.

It does what a file manager does when a user drags files onto a window:

  1. finds the top-level window whose title starts with --title-prefix,
     checks that it advertises XdndAware (and which protocol version),
     and checks that it is the window under its own centre point (what
     the pointer would be over);
  2. takes ownership of XdndSelection with a real server timestamp;
  3. sends XdndEnter (the --offer types, inline when up to three, else
     in the XdndTypeList property), --steps XdndPosition messages ending
     at the centre (action XdndActionCopy), each answered by
     XdndStatus(accept); with --leave it then cancels (XdndLeave) and
     checks that the target does not ask for the data;
  4. sends XdndDrop, answers the target's SelectionRequest for
     text/uri-list (and TARGETS) with file:///... URIs, and waits for
     XdndFinished;
  5. optionally waits until the window title becomes --expect-title.

It prints one JSON line with what happened and exits 0 only when every
step succeeded (non-zero with an "error" field otherwise). `shot`
writes the window's pixels (GetImage) to a PNG; `close` sends
WM_DELETE_WINDOW to the window, as a window manager's close button does.
The protocol is freedesktop.org's XDND, version 5; docs/ui.md (drag and
drop) says what this covers of GLFW's side and what it does not.

Usage:
  xdnd-drop.py drop --title-prefix "Burescope" [--expect-title T]
      [--offer TYPE,...] [--steps N] [--leave] FILE...
  xdnd-drop.py shot --title-prefix "Burescope" OUT.png
  xdnd-drop.py close --title-prefix "Burescope"
Needs python3-xlib (Debian package) and $DISPLAY.
"""

import argparse
import json
import os
import select
import struct
import sys
import time
import urllib.parse
import zlib

from Xlib import X, Xatom, display
from Xlib.protocol import event

XDND_VERSION = 5


class Fail(Exception):
    """A step of the protocol did not happen as it should."""


def prop_text(win, d, name, typ):
    """The text of window property name (type typ), or None."""
    try:
        p = win.get_full_property(d.intern_atom(name), typ)
    except Exception:  # the window went away meanwhile
        return None
    if p is None:
        return None
    v = p.value
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def title_of(win, d):
    """The window's title: _NET_WM_NAME (UTF-8), else WM_NAME."""
    t = prop_text(win, d, "_NET_WM_NAME", d.intern_atom("UTF8_STRING"))
    if t is None:
        t = prop_text(win, d, "WM_NAME", Xatom.STRING)
    return t


def find_window(d, prefix, timeout):
    """Waits for a viewable top-level window whose title starts with prefix."""
    root = d.screen().root
    deadline = time.monotonic() + timeout
    while True:
        stack = list(root.query_tree().children)
        while stack:
            w = stack.pop()
            try:
                attrs = w.get_attributes()
                t = title_of(w, d)
                if attrs.map_state == X.IsViewable and t and t.startswith(prefix):
                    return w
                stack.extend(w.query_tree().children)
            except Exception:
                continue
        if time.monotonic() > deadline:
            raise Fail("no viewable window titled %r... within %ds" % (prefix, timeout))
        time.sleep(0.2)


def next_event(d, timeout):
    """The next X event, or None after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if d.pending_events():
            return d.next_event()
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        select.select([d.fileno()], [], [], left)


class Source:
    """The drag source: a small unmapped window owning XdndSelection."""

    def __init__(self, d, paths):
        self.d = d
        self.root = d.screen().root
        self.atom = {n: d.intern_atom(n) for n in (
            "XdndAware", "XdndEnter", "XdndPosition", "XdndStatus", "XdndLeave",
            "XdndDrop", "XdndFinished", "XdndSelection", "XdndActionCopy",
            "XdndTypeList", "text/uri-list", "TARGETS", "BURESCOPE_XDND_TIME")}
        self.win = self.root.create_window(
            0, 0, 1, 1, 0, d.screen().root_depth,
            event_mask=X.PropertyChangeMask)
        self.uris = "".join(
            "file://" + urllib.parse.quote(os.path.abspath(p)) + "\r\n" for p in paths)
        self.requests = []  # the targets the drop target asked for

    def server_time(self):
        """A real server timestamp (from a PropertyNotify on our window)."""
        self.win.change_property(self.atom["BURESCOPE_XDND_TIME"], Xatom.STRING, 8, b"t")
        self.d.flush()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            ev = next_event(self.d, 1)
            if ev is not None and ev.type == X.PropertyNotify and ev.window == self.win:
                return ev.time
        raise Fail("no PropertyNotify to take a timestamp from")

    def send(self, target, name, data):
        """Sends the XDND ClientMessage name with data (padded to 5 longs) to target."""
        ev = event.ClientMessage(window=target, client_type=self.atom[name],
                                 data=(32, data + [0] * (5 - len(data))))
        target.send_event(ev, event_mask=0, propagate=False)
        self.d.flush()

    def answer(self, ev):
        """Answers a SelectionRequest for XdndSelection."""
        self.requests.append(self.d.get_atom_name(ev.target))
        prop = ev.property if ev.property != X.NONE else ev.target
        if ev.selection != self.atom["XdndSelection"]:
            prop = X.NONE
        elif ev.target == self.atom["text/uri-list"]:
            ev.requestor.change_property(prop, ev.target, 8, self.uris.encode())
        elif ev.target == self.atom["TARGETS"]:
            ev.requestor.change_property(prop, Xatom.ATOM, 32,
                                         [self.atom["TARGETS"], self.atom["text/uri-list"]])
        else:
            prop = X.NONE  # refused: a type we do not offer
        notify = event.SelectionNotify(time=ev.time, requestor=ev.requestor,
                                       selection=ev.selection, target=ev.target,
                                       property=prop)
        ev.requestor.send_event(notify, event_mask=0, propagate=False)
        self.d.flush()

    def wait_message(self, name, timeout):
        """Waits for ClientMessage name from the target, answering selection requests."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Fail("no %s from the target within %ds" % (name, timeout))
            ev = next_event(self.d, left)
            if ev is None:
                continue
            if ev.type == X.SelectionRequest:
                self.answer(ev)
            elif ev.type == X.ClientMessage and ev.client_type == self.atom[name]:
                return list(ev.data[1])  # (format, longs): the five longs

    def drop(self, target, timeout, offer=("text/uri-list",), steps=1, leave=False):
        """Runs one XDND exchange with target; returns what happened."""
        out = {"target": "0x%x" % target.id}
        aware = target.get_full_property(self.atom["XdndAware"], X.AnyPropertyType)
        if aware is None or len(aware.value) == 0:
            raise Fail("window 0x%x has no XdndAware property: it takes no drops" % target.id)
        version = min(XDND_VERSION, int(aware.value[0]))
        out["xdnd_aware_version"] = int(aware.value[0])
        if version < 2:
            raise Fail("XdndAware version %d is too old" % version)
        # Where the pointer would be: the centre of the window, in root
        # coordinates; the top-level window under that point must be target.
        g = target.get_geometry()
        c = self.root.translate_coords(target, g.width // 2, g.height // 2)  # target -> root
        x, y = c.x, c.y
        under = self.root.translate_coords(self.root, x, y).child
        if under is None or under == X.NONE or under.id != target.id:
            raise Fail("the window under (%d, %d) is not the target" % (x, y))
        out["point"] = [x, y]

        t = self.server_time()
        self.win.set_selection_owner(self.atom["XdndSelection"], t)
        if self.d.get_selection_owner(self.atom["XdndSelection"]) != self.win:
            raise Fail("could not own XdndSelection")
        # The types offered: up to three go in XdndEnter itself; more set
        # bit 0 and the target reads them from our XdndTypeList property.
        types = [self.d.intern_atom(n) for n in offer]
        self.win.change_property(self.atom["XdndTypeList"], Xatom.ATOM, 32, types)
        src = self.win.id
        more = 1 if len(types) > 3 else 0
        out["types_via"] = "XdndTypeList" if more else "XdndEnter"
        self.send(target, "XdndEnter", [src, (version << 24) | more] + ([] if more else types))
        # The pointer's way in: steps positions from the left quarter of
        # the window to its centre, each answered by XdndStatus before the
        # next (as sources do).
        x0 = self.root.translate_coords(target, g.width // 4, g.height // 4)
        for i in range(1, steps + 1):
            px = x0.x + (x - x0.x) * i // steps
            py = x0.y + (y - x0.y) * i // steps
            self.send(target, "XdndPosition", [src, 0, (px << 16) | py, t, self.atom["XdndActionCopy"]])
            status = self.wait_message("XdndStatus", timeout)
            if not status[1] & 1:
                self.send(target, "XdndLeave", [src])
                raise Fail("the target refused the drag at (%d, %d)" % (px, py))
        out["positions"] = steps
        out["status_accept"] = True
        if leave:
            # Cancelled: the target must not ask for the data.
            self.send(target, "XdndLeave", [src])
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                ev = next_event(self.d, deadline - time.monotonic())
                if ev is not None and ev.type == X.SelectionRequest:
                    self.answer(ev)
            out["selection_requests"] = self.requests
            if self.requests:
                raise Fail("the target asked for the data after XdndLeave")
            return out
        self.send(target, "XdndDrop", [src, 0, t])
        fin = self.wait_message("XdndFinished", timeout)
        out["selection_requests"] = self.requests
        # The spec's "accepted" is bit 0 of l[1]; GLFW 3.3 puts there the
        # number of bytes it read from the selection (0 when it got none),
        # so any non-zero value means the drop was taken.
        out["finished_l1"] = fin[1]
        out["finished_action"] = self.d.get_atom_name(fin[2]) if fin[2] else None
        if "text/uri-list" not in self.requests:
            raise Fail("the target never asked for text/uri-list")
        if fin[1] == 0:
            raise Fail("XdndFinished says the drop was not accepted")
        return out


def wait_title(win, d, want, timeout):
    """Waits until win's title is want; returns the last title seen."""
    deadline = time.monotonic() + timeout
    t = None
    while time.monotonic() < deadline:
        t = title_of(win, d)
        if t == want:
            return t
        time.sleep(0.2)
    raise Fail("title is %r, not %r, %ds after the drop" % (t, want, timeout))


def shot(d, win, path):
    """Writes win's pixels to the PNG file path (temp file + rename)."""
    g = win.get_geometry()
    w, h = g.width, g.height
    if g.depth not in (24, 32) or d.display.info.image_byte_order != X.LSBFirst:
        raise Fail("unsupported visual: depth %d, byte order %d" % (g.depth, d.display.info.image_byte_order))
    img = win.get_image(0, 0, w, h, X.ZPixmap, 0xFFFFFFFF)
    data = img.data
    stride = len(data) // h
    if stride < 4 * w:
        raise Fail("GetImage returned %d bytes for %dx%d" % (len(data), w, h))
    raw = bytearray()
    for y in range(h):
        row = data[y * stride:y * stride + 4 * w]  # B, G, R, X per pixel
        rgb = bytearray(3 * w)
        rgb[0::3], rgb[1::3], rgb[2::3] = row[2::4], row[1::4], row[0::4]
        raw += b"\x00" + rgb  # PNG filter type 0 (none) per row

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    png = (b"\x89PNG\r\n\x1a\n"
           + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b""))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(png)
    os.replace(tmp, path)
    return {"shot": path, "size": [w, h]}


def close(d, win):
    """Asks win to close, as a window manager's close button does."""
    proto = d.intern_atom("WM_PROTOCOLS")
    delete = d.intern_atom("WM_DELETE_WINDOW")
    ev = event.ClientMessage(window=win, client_type=proto,
                             data=(32, [delete, X.CurrentTime, 0, 0, 0]))
    win.send_event(ev, event_mask=0, propagate=False)
    d.sync()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["drop", "shot", "close"])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--title-prefix", required=True)
    ap.add_argument("--expect-title")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--offer", default="text/uri-list",
                    help="comma-separated types to offer (text/uri-list is the one served)")
    ap.add_argument("--steps", type=int, default=1, help="XdndPosition messages before the drop")
    ap.add_argument("--leave", action="store_true", help="cancel with XdndLeave instead of dropping")
    a = ap.parse_intermixed_args()
    out = {"command": a.command, "files": a.files}
    try:
        d = display.Display()
        win = find_window(d, a.title_prefix, a.timeout)
        out["title_before"] = title_of(win, d)
        if a.command == "close":
            close(d, win)
        elif a.command == "shot":
            if len(a.files) != 1:
                raise Fail("shot needs one output file")
            out.update(shot(d, win, a.files[0]))
        else:
            if not a.files:
                raise Fail("drop needs at least one file")
            out.update(Source(d, a.files).drop(win, a.timeout, a.offer.split(","),
                                               max(1, a.steps), a.leave))
            if a.expect_title is not None:
                out["title_after"] = wait_title(win, d, a.expect_title, a.timeout)
    except Fail as e:
        out["error"] = str(e)
        print(json.dumps(out, ensure_ascii=False), flush=True)
        return 1
    print(json.dumps(out, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
