#!/usr/bin/env python3
"""Set a sweep document with Pango and write it through cairo's PDF surface, as GTK programs print
(cairo writes no character for a glyph of a default-ignorable one: Persian's zero-width
non-joiners are left out of the text layer, only the letters' forms show them).

Calls the system's libpango, libpangocairo and libcairo through ctypes: no Python binding needed.

usage: pango.py SOURCE.json OUT.pdf    SOURCE: {"lang", "font", "title", "paras"}
"""
import ctypes
import json
import sys
from ctypes import byref, c_char_p, c_double, c_float, c_int, c_void_p

cairo = ctypes.CDLL("libcairo.so.2")
pango = ctypes.CDLL("libpango-1.0.so.0")
pangocairo = ctypes.CDLL("libpangocairo-1.0.so.0")
gobject = ctypes.CDLL("libgobject-2.0.so.0")

for lib, name, res, args in [
    (cairo, "cairo_pdf_surface_create", c_void_p, [c_char_p, c_double, c_double]),
    (cairo, "cairo_create", c_void_p, [c_void_p]),
    (cairo, "cairo_move_to", None, [c_void_p, c_double, c_double]),
    (cairo, "cairo_show_page", None, [c_void_p]),
    (cairo, "cairo_destroy", None, [c_void_p]),
    (cairo, "cairo_surface_finish", None, [c_void_p]),
    (cairo, "cairo_surface_destroy", None, [c_void_p]),
    (pangocairo, "pango_cairo_create_layout", c_void_p, [c_void_p]),
    (pangocairo, "pango_cairo_show_layout", None, [c_void_p, c_void_p]),
    (pango, "pango_font_description_from_string", c_void_p, [c_char_p]),
    (pango, "pango_font_description_free", None, [c_void_p]),
    (pango, "pango_layout_set_font_description", None, [c_void_p, c_void_p]),
    (pango, "pango_layout_set_width", None, [c_void_p, c_int]),
    (pango, "pango_layout_set_wrap", None, [c_void_p, c_int]),
    (pango, "pango_layout_set_line_spacing", None, [c_void_p, c_float]),
    (pango, "pango_layout_set_text", None, [c_void_p, c_char_p, c_int]),
    (pango, "pango_layout_set_attributes", None, [c_void_p, c_void_p]),
    (pango, "pango_layout_get_pixel_size", None, [c_void_p, c_void_p, c_void_p]),
    (pango, "pango_language_from_string", c_void_p, [c_char_p]),
    (pango, "pango_attr_language_new", c_void_p, [c_void_p]),
    (pango, "pango_attr_list_new", c_void_p, []),
    (pango, "pango_attr_list_insert", None, [c_void_p, c_void_p]),
    (pango, "pango_attr_list_unref", None, [c_void_p]),
    (gobject, "g_object_unref", None, [c_void_p]),
]:
    fn = getattr(lib, name)
    fn.restype, fn.argtypes = res, args

PAGE_W, PAGE_H = 595.28, 841.89  # A4, points
MARGIN = 72.0
PANGO_SCALE = 1024
PANGO_WRAP_WORD = 0
PARAGRAPH_GAP = 9.0


def main():
    source = json.loads(open(sys.argv[1], encoding="utf-8").read())
    surface = cairo.cairo_pdf_surface_create(sys.argv[2].encode(), PAGE_W, PAGE_H)
    cr = cairo.cairo_create(surface)
    attrs = pango.pango_attr_list_new()
    pango.pango_attr_list_insert(attrs, pango.pango_attr_language_new(pango.pango_language_from_string(source["lang"].encode())))
    y = MARGIN
    blocks = [(source["title"], f"{source['font']}, Bold 18", 1.0)] + [(p, f"{source['font']}, 12", 1.4) for p in source["paras"]]
    for text, font, spacing in blocks:
        layout = pangocairo.pango_cairo_create_layout(cr)
        desc = pango.pango_font_description_from_string(font.encode())
        pango.pango_layout_set_font_description(layout, desc)
        pango.pango_font_description_free(desc)
        pango.pango_layout_set_width(layout, int((PAGE_W - 2 * MARGIN) * PANGO_SCALE))
        pango.pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
        pango.pango_layout_set_line_spacing(layout, spacing)
        pango.pango_layout_set_attributes(layout, attrs)
        pango.pango_layout_set_text(layout, text.encode(), -1)
        w, h = c_int(), c_int()
        pango.pango_layout_get_pixel_size(layout, byref(w), byref(h))
        if y + h.value > PAGE_H - MARGIN and y > MARGIN:
            cairo.cairo_show_page(cr)
            y = MARGIN
        cairo.cairo_move_to(cr, MARGIN, y)
        pangocairo.pango_cairo_show_layout(cr, layout)
        gobject.g_object_unref(layout)
        y += h.value + PARAGRAPH_GAP
    pango.pango_attr_list_unref(attrs)
    cairo.cairo_destroy(cr)
    cairo.cairo_surface_finish(surface)
    cairo.cairo_surface_destroy(surface)


if __name__ == "__main__":
    main()
