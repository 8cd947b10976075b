"""The balance report's files: results.csv, summary.json, summary.md,
summary.html and, with --plots, the plots (matplotlib, Agg, PNG: imported only
when a plot is drawn, for it costs more than the rest of the report).

Every file is a function of the figures alone (no date, no machine, no
--jobs, keys sorted), so two runs of the same command give the same bytes and
a rerun diffs cleanly.  The Markdown and the HTML are rendered from one list
of blocks, so they say the same.
"""

import csv
import html
import json
import math
import re

from dicetable import games as registry

CSV = "results.csv"
JSON = "summary.json"
MARKDOWN = "summary.md"
HTML = "summary.html"
WIN_PLOT = "winrate.png"
SCORE_PLOT = "scores.png"
LENGTH_PLOT = "lengths.png"
BOT_PLOT = "bots.png"
VARIANT_PLOT = "variant.png"
# Every name a report may write: --force replaces these in a folder and
# removes those an earlier report wrote that this one does not.
FILES = (CSV, JSON, MARKDOWN, HTML, WIN_PLOT, SCORE_PLOT, LENGTH_PLOT, BOT_PLOT, VARIANT_PLOT)


# --- results.csv -----------------------------------------------------------------------


class Rows:
    """results.csv, written a match at a time: configuration, options, match,
    seed, the bot, score and place of every seat (empty past the players of a
    smaller configuration), actions, rounds, first lead."""

    def __init__(self, path, option_names, seats):
        self.file = open(path, "w", newline="", encoding="utf-8")
        self.writer = csv.writer(self.file, lineterminator="\n")
        self.seats = seats
        header = ["config", "players", *option_names, "match", "seed"]
        for word in ("bot", "score", "place"):
            header += ["%s_%d" % (word, s) for s in range(seats)]
        self.writer.writerow(header + ["actions", "rounds", "first_lead"])

    def add(self, config, row):
        i, seed, bots, scores, places, actions, rounds, lead = row
        pad = [""] * (self.seats - config.players)
        self.writer.writerow(
            [config.key(), config.players, *(v for _, v in config.values), i, seed]
            + list(bots)
            + pad
            + list(scores)
            + pad
            + list(places)
            + pad
            + [actions, rounds, "" if lead is None else lead]
        )

    def close(self):
        self.file.close()


# --- summary.json ----------------------------------------------------------------------


def rounded(value):
    """Floats to 6 decimals (what the figures can mean), tuples as lists."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    return value


def write_json(path, summary):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(rounded(summary), f, sort_keys=True, indent=1)
        f.write("\n")


# --- Words and numbers -----------------------------------------------------------------


def pct(p):
    return "—" if p is None else "%.1f %%" % (100 * p)


def pct_ci(p, ci):
    if p is None:
        return "—"
    if ci is None:
        return pct(p)
    return "%.1f %% [%.1f, %.1f]" % (100 * p, 100 * ci[0], 100 * ci[1])


def points(d, ci):
    """A difference of two rates in percentage points."""
    if d is None:
        return "—"
    if ci is None:
        return "%+.1f pp" % (100 * d)
    return "%+.1f pp [%+.1f, %+.1f]" % (100 * d, 100 * ci[0], 100 * ci[1])


def number(x, ci=None, signed=False):
    if x is None:
        return "—"
    f = "%+.2f" if signed else "%.2f"
    if ci is None:
        return f % x
    return (f + " [" + f + ", " + f + "]") % (x, ci[0], ci[1])


def combo_label(values):
    words = []
    for name, value in values:
        words.append("%s %d" % (name.replace("_", " "), value))
        if name == "length" and value == 0:
            words[-1] += " (the game's own)"
    return ", ".join(words) or "as given"


def panel_key(config):
    """The swept option values but players: one plot panel each."""
    return tuple((n, v) for n, v in config.values if n in config.swept)


# --- The report as blocks, rendered as Markdown and HTML --------------------------------


def blocks(summary, configs, plots):
    """The report's content: ("h", level, text), ("p", text), ("table", header,
    rows) and ("img", file, alt) in order.  Text may hold `code`."""
    title = registry.fact(registry.number(summary["game"]), registry.TITLE)
    players = summary["players"]
    span = "%d" % players[0] if len(players) == 1 else "%d–%d" % (players[0], players[-1])
    out: list[tuple] = [("h", 1, "Balance report: %s, %s players" % (title, span))]
    out.append(("p", "`%s`" % summary["command"]))
    seating = (
        "seats rotated by match index, so each bot sits in every seat equally often"
        if summary["rotate"]
        else "each seat keeps its bot"
    )
    out.append(
        (
            "p",
            "%d matches per configuration, %d configurations; bots %s (%s). Intervals are 95 %%:"
            " Wilson's for win rates, the normal approximation (sample standard deviation) for"
            " means. A win is first place as the game's standings give it: a shared first place"
            " is a win for each seat in it, so win rates may add up to more than 100 %%: the even"
            " share, the seats' mean win rate, is what each seat would win if none had an edge"
            " (the fair share, 1 / players, when no first place is shared)."
            % (
                summary["matches"],
                len(configs),
                ", ".join(summary["bots"]),
                seating,
            ),
        )
    )
    out.append(
        (
            "p",
            "The first lead is the seat that leads the first trick (in Dicefull, which has no"
            " tricks, the seat that picks first); its edge is its win rate minus the mean win"
            " rate of the other seats in the same matches. Each row of `results.csv` is one"
            " match: `python -m sim --game %s --players P --seed SEED --bots B0,B1,...` with the"
            " row's options replays it." % summary["game"],
        )
    )
    if not plots:
        out.append(("p", how_to_plot(summary)))
    out += overview(summary)
    if WIN_PLOT in plots:
        out.append(("img", WIN_PLOT, "win rate per seat with 95 % intervals"))
    out += variant_section(summary, plots)
    if summary["rotate"]:
        out += bots_section(summary, plots)
    out.append(("h", 2, "Distributions"))
    for name, alt in ((SCORE_PLOT, "score distributions"), (LENGTH_PLOT, "match lengths")):
        if name in plots:
            out.append(("img", name, alt))
    for f in summary["configurations"]:
        out += configuration_section(f, summary["rotate"])
    return out


def how_to_plot(summary):
    """The pages' line in a report drawn without its plots: which they would be
    and how to get them."""
    return (
        "No plots in this report (they are drawn only when asked): rerun the command above"
        " with `--plots` and an `--out` folder to draw them beside these pages: %s."
        % ", ".join("`%s`" % n for n in plot_names(summary))
    )


def overview(summary):
    rows = []
    for f in summary["configurations"]:
        lead = f["first_lead"]
        seats = ", ".join("%d" % s for s, _ in lead["seats"]) or "—"
        rows.append(
            [
                f["key"],
                "%d" % f["matches"],
                pct(f["fair_share"]),
                pct(f["even_win_rate"]),
                seats,
                pct_ci(lead["lead_win_rate"], lead["lead_win_rate_ci"]),
                pct_ci(lead["others_win_rate"], lead["others_win_rate_ci"]),
                points(lead["advantage"], lead["advantage_ci"]),
                number(f["actions"]["mean"]),
                number(f["rounds"]["mean"]),
            ]
        )
    header = [
        "configuration",
        "matches",
        "fair share",
        "even share",
        "first lead (seat)",
        "first lead wins",
        "others win",
        "first lead's edge",
        "actions",
        "rounds",
    ]
    return [("h", 2, "Overview"), ("table", header, rows)]


def variant_section(summary, plots):
    g = registry.number(summary["game"])
    word = registry.fact(g, registry.VARIANT_WORD)
    if not word:
        return []
    out: list[tuple] = [("h", 2, "Variant against standard")]
    pairs = summary["variant_vs_standard"]
    if not pairs:
        out.append(
            (
                "p",
                "%s has a variant (%s); this report does not compare it: add"
                " `--sweep variant=0,1`." % (summary["game"], word),
            )
        )
        return out
    out.append(
        (
            "p",
            "The variant (%s) against the standard rules, configurations alike but for it:"
            " variant minus standard, per seat, with 95 %% intervals (Newcombe's for win"
            " rates, Welch's normal approximation for means)." % word,
        )
    )
    rows = []
    for pair in pairs:
        where = "%dp" % pair["players"]
        if pair["options"]:
            where += " " + combo_label(sorted(pair["options"].items()))
        for s in pair["seats"]:
            rows.append(
                [
                    where,
                    "%d" % s["seat"],
                    points(s["win_rate_diff"], s["win_rate_diff_ci"]),
                    number(s["mean_score_diff"], s["mean_score_diff_ci"], signed=True),
                ]
            )
        rows.append(
            [where, "actions", "", number(pair["actions_diff"], pair["actions_diff_ci"], True)]
        )
    out.append(("table", ["configuration", "seat", "win rate", "mean score"], rows))
    if VARIANT_PLOT in plots:
        out.append(("img", VARIANT_PLOT, "win rate per seat, standard and variant"))
    return out


def bots_section(summary, plots):
    rows = []
    for f in summary["configurations"]:
        for name, b in sorted(f["bots"].items()):
            rows.append(
                [
                    f["key"],
                    name,
                    "%d" % b["n"],
                    pct_ci(b["win_rate"], b["win_rate_ci"]),
                    number(b["mean_score"], b["mean_score_ci"]),
                ]
            )
    out: list[tuple] = [
        ("h", 2, "Bots"),
        (
            "p",
            "Seats rotated: every bot sat in every seat equally often (to within one match),"
            " so these figures are the bots', not the seats'. A seat-match is one seat in one"
            " match.",
        ),
        ("table", ["configuration", "bot", "seat-matches", "win rate", "mean score"], rows),
    ]
    if BOT_PLOT in plots:
        out.append(("img", BOT_PLOT, "win rate per bot"))
    return out


def configuration_section(f, rotate):
    rows = []
    for s in f["seats"]:
        sc = s["scores"]
        rows.append(
            [
                "%d" % s["seat"],
                pct_ci(s["win_rate"], s["win_rate_ci"]),
                number(s["mean_score"], s["mean_score_ci"]),
                number(s["score_sd"]),
                "%s / %s / %s / %s / %s"
                % (sc["min"], sc["p10"], sc["median"], sc["p90"], sc["max"]),
            ]
        )
    header = ["seat", "win rate", "mean score", "sd", "score min / p10 / median / p90 / max"]
    if not rotate:
        header.insert(1, "bot")
        for row, s in zip(rows, f["seats"], strict=True):
            row.insert(1, s["bot"])
    a, r = f["actions"], f["rounds"]
    lengths = (
        "Match length: %s actions [%s, %s] on average (p10 %s, median %s, p90 %s; %s to %s);"
        " %s rounds on average (%s to %s)."
        % (
            number(a["mean"]),
            number(a["mean_ci"][0]) if a["mean_ci"] else "—",
            number(a["mean_ci"][1]) if a["mean_ci"] else "—",
            a["p10"],
            a["median"],
            a["p90"],
            a["min"],
            a["max"],
            number(r["mean"]),
            r["min"],
            r["max"],
        )
    )
    return [("h", 3, f["key"]), ("table", header, rows), ("p", lengths)]


def markdown(items):
    lines = []
    for item in items:
        if item[0] == "h":
            lines += ["#" * item[1] + " " + item[2], ""]
        elif item[0] == "p":
            lines += [item[1], ""]
        elif item[0] == "img":
            lines += ["![%s](%s)" % (item[2], item[1]), ""]
        else:
            header, rows = item[1], item[2]
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + "---|" * len(header))
            lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
            lines.append("")
    return "\n".join(lines)


def inline_html(text):
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", html.escape(text, quote=False))


STYLE = (
    "body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0 1em}"
    "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
    "th{background:#f4f4f4}img{max-width:100%}code{background:#f4f4f4}"
)


def page(items, title):
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>%s</title><style>%s</style></head><body>" % (html.escape(title), STYLE),
    ]
    for item in items:
        if item[0] == "h":
            out.append("<h%d>%s</h%d>" % (item[1], inline_html(item[2]), item[1]))
        elif item[0] == "p":
            out.append("<p>%s</p>" % inline_html(item[1]))
        elif item[0] == "img":
            out.append(
                '<p><img src="%s" alt="%s"></p>' % (html.escape(item[1]), html.escape(item[2]))
            )
        else:
            out.append(
                "<table><tr>%s</tr>" % "".join("<th>%s</th>" % html.escape(h) for h in item[1])
            )
            for row in item[2]:
                out.append("<tr>%s</tr>" % "".join("<td>%s</td>" % html.escape(c) for c in row))
            out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# --- Plots -----------------------------------------------------------------------------


def _figure(panels, cols, panel_height=3.2, width=10.0):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    cols = max(1, min(cols, panels))
    rows = math.ceil(panels / cols)
    fig = Figure(figsize=(width, panel_height * rows), layout="constrained")
    axes = list(fig.subplots(rows, cols, squeeze=False).ravel())
    for ax in axes[panels:]:
        ax.set_visible(False)
    return fig, axes[:panels]


def _save(fig, path):
    # No Software entry: the file then depends on the figures and matplotlib's drawing alone.
    fig.savefig(path, format="png", dpi=100, metadata={"Software": None})


def _panels(configs, figs, key, game):
    """[(panel title, [(config, figures), ...])] grouped by key(config), in order;
    with nothing swept one panel, titled with the game's name."""
    groups = {}
    for config, f in zip(configs, figs, strict=True):
        groups.setdefault(key(config), []).append((config, f))
    return [(combo_label(k) if k else game, v) for k, v in groups.items()]


def bar_lengths(rates, cis):
    """[below, above]: how far each interval reaches below and above its rate,
    never less than 0 (a rate of 100 % has a Wilson bound that rounds a hair
    below it, which matplotlib refuses as a negative error bar)."""
    low = [max(0.0, r - c[0]) if c else 0 for r, c in zip(rates, cis, strict=True)]
    high = [max(0.0, c[1] - r) if c else 0 for r, c in zip(rates, cis, strict=True)]
    return [low, high]


def _interval_bars(ax, xs, rates, cis, **style):
    ax.errorbar(xs, rates, yerr=bar_lengths(rates, cis), fmt="o", capsize=3, **style)


def plot_win_rates(path, configs, figs, game):
    """Win rate per seat with its interval, a colour per player count, the fair
    share dashed, the first lead's seat a diamond; a panel per swept option mix."""
    panels = _panels(configs, figs, panel_key, game)
    fig, axes = _figure(len(panels), 2 if len(panels) > 1 else 1)
    for ax, (title, members) in zip(axes, panels, strict=True):
        x = 0
        ticks, labels = [], []
        for k, (config, f) in enumerate(members):
            colour = "C%d" % (k % 10)
            xs = [x + s for s in range(config.players)]
            rates = [s["win_rate"] for s in f["seats"]]
            cis = [s["win_rate_ci"] for s in f["seats"]]
            _interval_bars(ax, xs, rates, cis, color=colour, label="%d players" % config.players)
            ax.hlines(
                f["even_win_rate"], xs[0] - 0.4, xs[-1] + 0.4, colors=colour, linestyles="dashed"
            )
            leads = f["first_lead"]["seats"]
            if leads:
                lead = max(leads, key=lambda sc: sc[1])[0]
                ax.plot(
                    [xs[lead]], [rates[lead]], "D", color=colour, markersize=9, fillstyle="none"
                )
            ticks += xs
            labels += ["%d" % s for s in range(config.players)]
            x += config.players + 1
        ax.set_xticks(ticks, labels)
        ax.set_xlabel("seat (dashed: the seats' mean; diamond: first lead)")
        ax.set_ylabel("win rate")
        ax.set_ylim(bottom=0)
        ax.set_title(title)
        ax.legend(fontsize="small")
    _save(fig, path)


def _stairs(ax, distribution, label, colour):
    """A distribution [[value, count], ...] as a step line of fractions:
    whole-number bins when the values span 80 or fewer, else 40 bins."""
    import numpy as np

    values = np.array([v for v, _ in distribution], dtype=float)
    counts = np.array([c for _, c in distribution], dtype=float)
    lo, hi = values.min(), values.max()
    if hi - lo <= 80:
        edges = np.arange(lo - 0.5, hi + 1.5)
    else:
        edges = np.linspace(lo, hi, 41)
    hist, edges = np.histogram(values, bins=edges, weights=counts)
    ax.stairs(hist / counts.sum(), edges, label=label, color=colour)


def plot_scores(path, configs, figs, game):
    """The final score's distribution per seat, a panel per configuration."""
    fig, axes = _figure(len(configs), 3, panel_height=2.6)
    for ax, f in zip(axes, figs, strict=True):
        for s in f["seats"]:
            _stairs(ax, s["scores"]["distribution"], "seat %d" % s["seat"], "C%d" % s["seat"])
        ax.set_title(f["key"])
        ax.set_xlabel("final score")
        ax.set_ylabel("share of matches")
        ax.legend(fontsize="x-small")
    _save(fig, path)


def plot_lengths(path, configs, figs, game):
    """Actions per match, a line per player count, a panel per swept option mix."""
    panels = _panels(configs, figs, panel_key, game)
    fig, axes = _figure(len(panels), 2, panel_height=2.8)
    for ax, (title, members) in zip(axes, panels, strict=True):
        for k, (config, f) in enumerate(members):
            label = "%d players (mean %.0f)" % (config.players, f["actions"]["mean"])
            _stairs(ax, f["actions"]["distribution"], label, "C%d" % (k % 10))
        ax.set_title(title)
        ax.set_xlabel("actions in the journal")
        ax.set_ylabel("share of matches")
        ax.legend(fontsize="small")
    _save(fig, path)


def plot_bots(path, configs, figs, game):
    """With --rotate: each bot's win rate with its interval, per player count."""
    panels = _panels(configs, figs, panel_key, game)
    names = sorted({name for f in figs for name in f["bots"]})
    fig, axes = _figure(len(panels), 2)
    for ax, (title, members) in zip(axes, panels, strict=True):
        for b, name in enumerate(names):
            xs, rates, cis = [], [], []
            for k, (_, f) in enumerate(members):
                if name in f["bots"]:
                    xs.append(k + 0.15 * (b - (len(names) - 1) / 2))
                    rates.append(f["bots"][name]["win_rate"])
                    cis.append(f["bots"][name]["win_rate_ci"])
            _interval_bars(ax, xs, rates, cis, color="C%d" % (b % 10), label=name)
        for k, (_, f) in enumerate(members):
            ax.hlines(f["even_win_rate"], k - 0.4, k + 0.4, colors="grey", linestyles="dashed")
        ax.set_xticks(range(len(members)), ["%d players" % c.players for c, _ in members])
        ax.set_ylabel("win rate (dashed: the seats' mean)")
        ax.set_ylim(bottom=0)
        ax.set_title(title)
        ax.legend(fontsize="small")
    _save(fig, path)


def plot_variant(path, configs, figs, game):
    """Standard and variant win rates per seat side by side, a panel per pair."""
    pairs = {}
    for config, f in zip(configs, figs, strict=True):
        pairs.setdefault((config.players, config.others()), {})[config.value("variant")] = f
    pairs = [(k, v) for k, v in pairs.items() if 0 in v and 1 in v]
    fig, axes = _figure(len(pairs), 2)
    for ax, ((players, others), pair) in zip(axes, pairs, strict=True):
        for v, (name, shift) in enumerate((("standard", -0.12), ("variant", 0.12))):
            seats = pair[v]["seats"]
            xs = [s["seat"] + shift for s in seats]
            rates = [s["win_rate"] for s in seats]
            _interval_bars(
                ax, xs, rates, [s["win_rate_ci"] for s in seats], color="C%d" % v, label=name
            )
        for v in (0, 1):
            ax.axhline(pair[v]["even_win_rate"], color="C%d" % v, linestyle="dashed", linewidth=1)
        ax.set_xticks(range(players))
        ax.set_xlabel("seat (dashed: the seats' mean)")
        ax.set_ylabel("win rate")
        ax.set_ylim(bottom=0)
        ax.set_title("%d players%s" % (players, (", " + combo_label(others)) if others else ""))
        ax.legend(fontsize="small")
    _save(fig, path)


def plot_names(summary):
    """The plots that have something to show in this report, in the order drawn."""
    names = [WIN_PLOT, SCORE_PLOT, LENGTH_PLOT]
    if summary["rotate"]:
        names.append(BOT_PLOT)
    if summary["variant_vs_standard"]:
        names.append(VARIANT_PLOT)
    return names


def write_plots(folder, configs, summary):
    """Draw every plot that has something to show (python -m sim balance --plots);
    the names written."""
    import os

    figs = summary["configurations"]
    game = registry.fact(registry.number(summary["game"]), registry.TITLE)
    draw = {
        WIN_PLOT: plot_win_rates,
        SCORE_PLOT: plot_scores,
        LENGTH_PLOT: plot_lengths,
        BOT_PLOT: plot_bots,
        VARIANT_PLOT: plot_variant,
    }
    names = plot_names(summary)
    for name in names:
        draw[name](os.path.join(folder, name), configs, figs, game)
    return names


def write_pages(folder, configs, summary, plots):
    import os

    items = blocks(summary, configs, plots)
    with open(os.path.join(folder, MARKDOWN), "w", encoding="utf-8") as f:
        f.write(markdown(items))
    with open(os.path.join(folder, HTML), "w", encoding="utf-8") as f:
        f.write(page(items, items[0][2]))
