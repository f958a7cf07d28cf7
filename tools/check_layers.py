#!/usr/bin/env python3
"""Checks the layering of libua (docs/Architecture.md "Layers"): no include cycles, and each layer
uses only itself and the layers before it.

    tools/check_layers.py [libua/ua]   checks the tree (default: libua/ua next to this tool)
    tools/check_layers.py --known F [libua/ua]
                                       the same, with the problems listed in F (one a line, as
                                       printed; # comments) allowed: each new problem fails, and so
                                       does each line of F that no longer occurs (the list only shrinks)
    tools/check_layers.py --self-test  shows on small made-up trees that a cycle and each kind of
                                       violation are found (and a clean tree passes)

Reads every `#include "ua/..."` line of the .h and .cpp files under the folder. A unit is a .h with
its .cpp of the same name in the same folder, and an XImpl.h (the private part of X: struct
X::Impl) with X; a file of a `generated/` folder belongs to its parent folder
(addressspace/generated/Ns0Tables.cpp is one unit with addressspace/Ns0Tables.h). Reports:
  - every include cycle between units (Tarjan's strongly connected components);
  - every include of a later layer, of another layer of the same rank (client/channel and
    client/session), or of the other side, whatever its rank (the client and the server);
  - every include of a file at the root of a folder the includer sits below (a subfolder never
    includes its parent folder's files: services/ does not include server/Server.h). ua/ itself
    holds only Version.h, the library's version (types layer), which anyone may include;
  - every file in no layer (a new folder must be given its place here).
Prints `file: includes other (layer A -> layer B)` per violation and exits 1 if there is any.
Python 3 standard library only.
"""

import os
import re
import sys
import tempfile

# The layers in order: (name, rank, folders relative to ua/, side). A unit may include units of its
# own layer and of layers of a lower rank. Two layers of the same rank use none of each other. The
# side ("client", "server", or None for the layers both build on) keeps the client and the server
# apart: a unit of one side includes nothing of the other, whatever the ranks. Files at the root of
# server/ count as runtime (the server's configuration headers); files at the root of client/ (the
# public Client) are the client's top layer.
LAYERS = [
    ("types", 0, ["types", "sanitize", ""], None),  # "": ua/Version.h
    ("encoding", 1, ["encoding"], None),
    ("transport+pki", 2, ["transport", "pki"], None),
    ("secure", 3, ["secure"], None),
    ("client/common", 4, ["client/common"], "client"),
    ("client/channel", 5, ["client/channel"], "client"),
    ("client/session", 5, ["client/session"], "client"),
    ("client/browse", 5, ["client/browse"], "client"),
    ("client/history", 5, ["client/history"], "client"),
    ("client/discovery", 6, ["client/discovery"], "client"),
    ("client/calls", 6, ["client/calls"], "client"),
    ("client/core", 7, ["client/core"], "client"),
    ("client/subscriptions", 8, ["client/subscriptions"], "client"),
    ("client", 9, ["client"], "client"),
    ("server/addressspace+users", 4, ["server/addressspace", "server/users"], "server"),
    ("server/common", 5, ["server/common"], "server"),
    ("server/nodeset", 5, ["server/nodeset"], "server"),
    # An event and the filters that pick and select from it (OPC 10000-4 7.7 ContentFilter, 7.22.3
    # EventFilter): used by the event items and by the event history.
    ("server/eventmodel", 6, ["server/eventmodel"], "server"),
    ("server/history", 7, ["server/history"], "server"),
    ("server/services", 8, ["server/services"], "server"),
    ("server/subscriptions+events", 9, ["server/subscriptions", "server/events"], "server"),
    ("server/diagnostics", 10, ["server/diagnostics"], "server"),
    # Alarms and Conditions (OPC 10000-9): condition state, nodes, Methods and ConditionRefresh, on
    # top of the events and the subscriptions.
    ("server/conditions", 10, ["server/conditions"], "server"),
    # Push certificate management (OPC 10000-12 7.8.2, 7.10): the TrustList file and the
    # ServerConfiguration transaction, on top of the PKI and the audit events.
    ("server/certificates", 10, ["server/certificates"], "server"),
    ("server/runtime", 11, ["server/runtime", "server"], "server"),
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"(ua/[^"]+)"')


def folder_of(path):
    """The folder a file belongs to (relative to ua/), a generated/ folder counting as its parent."""
    folder = os.path.dirname(path)
    parts = folder.split("/") if folder else []
    while parts and parts[-1] == "generated":
        parts.pop()
    return "/".join(parts)


def unit_of(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem.endswith("Impl") and len(stem) > 4 and path.endswith(".h"):
        stem = stem[:-4]  # XImpl.h: the private part of X (struct X::Impl), shared by X's .cpp files
    folder = folder_of(path)
    return folder + "/" + stem if folder else stem


def layer_of(path):
    """(name, rank, side) of the layer of a file, or None. The longest matching folder wins."""
    folder = folder_of(path)
    best = None
    for name, rank, folders, side in LAYERS:
        for f in folders:
            if folder == f and (best is None or len(f) > best[0]):
                best = (len(f), name, rank, side)
    return best[1:] if best else None


def may_include(src_layer, dst_layer):
    """Whether a unit of src_layer may include one of dst_layer (both not None)."""
    if src_layer == dst_layer:
        return True
    if src_layer[2] and dst_layer[2] and src_layer[2] != dst_layer[2]:
        return False  # the client and the server use none of each other
    return dst_layer[1] < src_layer[1]


def read_includes(root):
    """{file relative to root's parent ("ua/..."): [(line number, included "ua/..." path)]}"""
    base = os.path.basename(os.path.normpath(root))
    files = {}
    for dirpath, _, names in os.walk(root):
        for n in sorted(names):
            if not n.endswith((".h", ".cpp")):
                continue
            full = os.path.join(dirpath, n)
            rel = base + "/" + os.path.relpath(full, root).replace(os.sep, "/")
            incs = []
            with open(full, encoding="utf-8", errors="replace") as fh:
                for no, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if m:
                        incs.append((no, m.group(1)))
            files[rel] = incs
    return files


def strongly_connected(graph):
    """Tarjan's algorithm (iterative); returns the components of more than one node."""
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    n = stack.pop()
                    on_stack.discard(n)
                    comp.append(n)
                    if n == node:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return comps


def check(root, out=sys.stdout, known=None):
    """Prints the violations and cycles of the tree at root; returns the number of problems not in
    known (a set of problem lines, or None), plus the entries of known that did not occur."""
    found = set()
    known = known if known is not None else set()

    def report(line, details=()):
        found.add(line)
        tag = " [known]" if line in known else ""
        print(line + tag, file=out)
        for d in details:
            print(f"    {d}", file=out)
        return 0 if line in known else 1

    files = read_includes(root)
    strip = len(os.path.basename(os.path.normpath(root))) + 1  # "ua/"
    problems = 0
    graph = {}
    edges = {}  # (unit, unit) -> first "file:line includes other"
    for f in sorted(files):
        src = f[strip:]
        src_unit = unit_of(src)
        graph.setdefault(src_unit, set())
        src_layer = layer_of(src)
        if src_layer is None:
            problems += report(f"{f}: in no layer (give its folder a place in tools/check_layers.py)")
        for no, inc in files[f]:
            dst = inc[3:]
            if "ua/" + dst not in files:
                continue  # not a file of the tree (a generated .moc, a typo the compiler reports)
            dst_unit = unit_of(dst)
            if dst_unit != src_unit:
                graph[src_unit].add(dst_unit)
                edges.setdefault((src_unit, dst_unit), f"{f}:{no} includes {inc}")
            dst_layer = layer_of(dst)
            if src_layer and dst_layer and not may_include(src_layer, dst_layer):
                problems += report(f"{f}: includes {inc} (layer {src_layer[0]} -> layer {dst_layer[0]})")
            src_folder, dst_folder = folder_of(src), folder_of(dst)
            if dst_folder and dst_folder != src_folder and src_folder.startswith(dst_folder + "/"):
                problems += report(f"{f}: includes {inc} (a subfolder includes its parent folder's file)")
    for comp in strongly_connected(graph):
        members = set(comp)
        details = [edges[(a, b)] for a in comp for b in sorted(graph[a] & members)]
        problems += report(f"cycle of {len(comp)} units: {' '.join(comp)}", details)
    for line in sorted(known - found):
        print(f"{line} [known, but no longer found: remove it from the list]", file=out)
        problems += 1
    return problems


def self_test():
    cycle = {"types/A.h": ["types/B.h"], "types/B.h": [], "types/B.cpp": ["types/A.h"]}
    cases = [
        ("a clean tree", {"types/A.h": [], "types/A.cpp": ["types/A.h"], "encoding/B.h": ["types/A.h"]}, 0),
        ("a cycle of two units", {"types/A.h": ["types/B.h"], "types/B.h": [], "types/B.cpp": ["types/A.h"]}, 1),
        ("a lower layer including a higher one", {"types/A.h": ["encoding/B.h"], "encoding/B.h": []}, 1),
        ("client including the server", {"client/C.h": ["server/addressspace/N.h"], "server/addressspace/N.h": []}, 1),
        ("a client folder including a server folder of a lower rank",
         {"client/core/C.h": ["server/common/S.h"], "server/common/S.h": []}, 1),
        ("the server including a client folder of a lower rank",
         {"server/runtime/R.h": ["client/common/C.h"], "client/common/C.h": []}, 1),
        ("two client folders of the same rank",
         {"client/channel/A.h": ["client/session/B.h"], "client/session/B.h": []}, 1),
        ("a client folder including a lower one and the shared layers",
         {"client/core/C.h": ["client/calls/P.h", "secure/S.h"], "client/calls/P.h": ["client/common/K.h"],
          "client/common/K.h": [], "secure/S.h": []}, 0),
        ("a client subfolder including the Client at client/'s root",
         {"client/core/C.cpp": ["client/Client.h"], "client/Client.h": []}, 2),  # also a higher layer
        ("a subfolder including its parent folder's file",
         {"server/services/S.cpp": ["server/Server.h"], "server/Server.h": []}, 2),  # also runtime
        ("a file in no layer", {"server/other/X.h": []}, 1),
        ("XImpl.h is part of X",
         {"pki/S.h": [], "pki/S.cpp": ["pki/SImpl.h"], "pki/SImpl.h": ["pki/S.h"]}, 0),
        ("generated files belong to their parent folder",
         {"encoding/generated/T.h": ["encoding/Enc.h"], "encoding/Enc.h": [], "encoding/generated/T.cpp": ["encoding/generated/T.h"]}, 0),
    ]
    failed = 0
    cases.append(("a known cycle is allowed", cycle, 0, {"cycle of 2 units: types/A types/B"}))
    cases.append(("a known problem that is gone fails", {"types/A.h": []}, 1, {"cycle of 2 units: types/A types/B"}))
    for case in cases:
        title, tree, expected = case[:3]
        known = case[3] if len(case) > 3 else None
        with tempfile.TemporaryDirectory() as tmp:
            root = os.path.join(tmp, "ua")
            for path, incs in tree.items():
                full = os.path.join(root, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w", encoding="utf-8") as fh:
                    fh.write("".join(f'#include "ua/{i}"\n' for i in incs))
            lines = []

            class Sink:
                def write(self, s):
                    lines.append(s)

            got = check(root, out=Sink(), known=known)
        ok = got == expected
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {title}: {got} problem(s), expected {expected}")
        if not ok:
            print("".join(lines), end="")
    return 1 if failed else 0


def read_known(path):
    with open(path, encoding="utf-8") as fh:
        return {l.strip() for l in fh if l.strip() and not l.lstrip().startswith("#")}


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    known = None
    if len(argv) > 2 and argv[1] == "--known":
        known = read_known(argv[2])
        argv = argv[:1] + argv[3:]
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "libua", "ua")
    if not os.path.isdir(root):
        print(f"error: {root} is not a folder", file=sys.stderr)
        return 2
    problems = check(root, known=known)
    print(f"check_layers: {problems} problem(s) in {os.path.normpath(root)}" +
          (f" besides the {len(known)} known ones" if known else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
