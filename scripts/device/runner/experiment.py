"""Reading an experiment file, scripts/device/experiments/NAME.conf (its format:
scripts/device/README.md): the file, --set on it, the steps a run takes, --list,
and the syntax of its values (lists separated by spaces, per-filter values)."""
import configparser
import os
import sys

from .paths import EXPERIMENTS


def words(text):
    return (text or "").split()


def per_filter(text, filter_):
    """'8192 nlmeans:1024' -> '1024' for nlmeans, '8192' for any other filter."""
    plain = [t for t in words(text) if ":" not in t]
    own = [t.partition(":")[2] for t in words(text) if t.partition(":")[0] == filter_]
    return (own or plain or [None])[0]


def parse(path):
    """An experiment file as a ConfigParser: no interpolation, `#` comments, keys as written."""
    conf = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=("#",))
    conf.optionxform = str
    conf.read(path, encoding="utf-8")
    return conf


def step_names(conf):
    return [s for s in conf.sections() if s != "experiment"]


def load(name, settings):
    """Experiment `name` with each --set STEP.KEY=VALUE of `settings` applied."""
    path = os.path.join(EXPERIMENTS, name + ".conf")
    if not os.path.isfile(path):
        sys.exit(f"run.py: no experiment {name} (scripts/device/experiments/{name}.conf); --list names them")
    conf = parse(path)
    for setting in settings:
        key, sep, value = setting.partition("=")
        section, dot, option = key.partition(".")
        if not (sep and dot):
            sys.exit(f"run.py: --set {setting}: STEP.KEY=VALUE")
        if section == "experiment" and not conf.has_section(section):
            conf.add_section(section)
        if not conf.has_section(section):
            sys.exit(f"run.py: --set {setting}: {name} has no step {section}")
        conf.set(section, option, value)
    return conf


def header(conf):
    """The [experiment] section (an empty dict without one)."""
    return conf["experiment"] if conf.has_section("experiment") else {}


def chosen_steps(conf, name, only):
    """The steps a run takes: those --only names, else the experiment's `default`, else all."""
    steps = step_names(conf)
    chosen = [s for part in only for s in part.split(",") if s] if only else words(header(conf).get("default")) or steps
    for s in chosen:
        if s not in steps:
            sys.exit(f"run.py: {name} has no step {s} (its steps: {' '.join(steps)})")
    return chosen


def kind_of(name, step):
    """A step's kind: its `kind` key, else its section name up to the first `.`."""
    return step.get("kind", name.partition(".")[0])


def list_experiments():
    for path in sorted(os.listdir(EXPERIMENTS)):
        if path.endswith(".conf"):
            conf = parse(os.path.join(EXPERIMENTS, path))
            about = conf.get("experiment", "about", fallback="").split("\n")[0] if conf.has_section("experiment") else ""
            print(f"{path[:-5]:<18} {' '.join(step_names(conf)):<34} {about}")
