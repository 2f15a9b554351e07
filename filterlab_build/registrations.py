"""What a variant's registration says, for both languages: the values of its template's @VARIABLES@.

The build configures one registration a variant from its language's template (cmake/halide_variant.cpp.in,
cmake/tvm_variant.cpp.in) with the values the manifest gives it (build/variants.json: "registration"), each a
piece of C++ written here from the variant's fields, so that every name reaches the runtime as the manifest
wrote it: Variant::libraries carries each library's name, archive, header and entry point, which
`filterlab list --json` prints as they are.
"""
import json

from . import library_names

TEMPLATES = {"halide": "halide_variant.cpp.in", "tvm": "tvm_variant.cpp.in"}


def cxx_string(text):
    return json.dumps(text)  # a C++ string literal: the names hold no character JSON and C++ escape otherwise


def supports_spec(supports):
    """[{"param", "values"} or {"param", "min", "max"}] as the registry's spec ("size=3,5;radius=1..7")."""
    items = []
    for s in supports:
        if "values" in s:
            items.append(f"{s['param']}={','.join(json.dumps(v) for v in s['values'])}")
        else:
            items.append(f"{s['param']}={json.dumps(s['min'])}..{json.dumps(s['max'])}")
    return ";".join(items)


def axes_cxx(axes):
    """Variant::axes' initializer: {"name", {values}, default}, ..."""
    return ", ".join(f"{{{cxx_string(a['name'])}, {{{', '.join(map(str, a['values']))}}}, {a['default']}}}"
                     for a in axes)


def fixed_cxx(fixed):
    """A library's compile-time values as their initializer: {{"size", 3}}, {} for none."""
    return "{" + ", ".join(f'{{{cxx_string(p)}, {v}}}' for p, v in fixed.items()) + "}"


def libraries_cxx(libraries):
    """Variant::libraries' initializer: {name, archive file, header, entry point} of each library."""
    return ", ".join("{" + ", ".join(cxx_string(lib[k]) for k in ("name", "file", "header", "entry_point")) + "}"
                     for lib in libraries)


def registration(variant, stem, unity_group, values):
    """The registration of one variant (its fields as the manifest lists them): its template, the source
    configured from it (<stem>_variant.cpp, the C++ object <stem>_registration), the unity batch it compiles
    in, and its template's values, the common ones and its language's `values`."""
    source, name = library_names.registration_names(stem)
    span = variant["source"]
    common = {"REGISTRATION": name, "FILTER": variant["filter"], "VARIANT_NAME": variant["variant"],
              "SUPPORTS": variant["supports"], "ORIGIN": variant["origin"], "SOURCE_FILE": span["file"],
              "FIRST_LINE": str(span["first_line"]), "LAST_LINE": str(span["last_line"]),
              "LIBRARIES": libraries_cxx(variant["libraries"]), "AXES": axes_cxx(variant["axes"]),
              "POINT_TEXT": variant["point"]["text"], "ALGORITHM": variant["algorithm_key"] or ""}
    return {"template": TEMPLATES[variant["language"]], "source": source, "unity_group": unity_group,
            "values": common | values}
