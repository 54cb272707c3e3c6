# Writes python.txt: the attribute names of Python's built-in types, the
# builtins module and the classes of commonly imported standard modules.
#     python3 python.py > python.txt
import builtins, datetime, pathlib, re, io, collections, logging, threading, decimal, uuid, argparse, json, os, subprocess, socket, enum, fractions, queue, string, functools, itertools, operator, types, typing, sqlite3, csv, zipfile, tarfile, tempfile, urllib.parse, http.client, email.message, xml.etree.ElementTree as ET, unittest, hashlib, random, time, array, contextlib, inspect, copy, weakref, abc, asyncio, shutil, warnings, traceback, textwrap, struct, codecs, configparser, gettext, locale, math, statistics, heapq, bisect, pickle, secrets, base64, binascii
names = set()
def add(obj):
    for n in dir(obj):
        names.add(n)
for t in [str, bytes, bytearray, memoryview, list, tuple, dict, set, frozenset, int, float, complex, bool, object, type, range, slice, property, classmethod, staticmethod, BaseException, Exception, OSError, SyntaxError, UnicodeError, KeyError]:
    add(t)
add(builtins)
mods = [datetime, pathlib, re, io, collections, logging, threading, decimal, uuid, argparse, json, os, os.path, subprocess, socket, enum, fractions, queue, string, functools, itertools, operator, types, typing, sqlite3, csv, zipfile, tarfile, tempfile, urllib.parse, http.client, email.message, ET, unittest, hashlib, random, time, array, contextlib, inspect, copy, weakref, abc, asyncio, shutil, warnings, traceback, textwrap, struct, codecs, configparser, gettext, locale, math, statistics, heapq, bisect, pickle, secrets, base64, binascii]
for m in mods:
    for n in dir(m):
        if n.startswith('_'): continue
        v = getattr(m, n, None)
        if isinstance(v, type):
            add(v)
names.update(['month','year','day'])
import keyword
print("\n".join(sorted(n for n in names if re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', n))))
