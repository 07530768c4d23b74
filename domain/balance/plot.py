"""The picture of a balance report: a heat map of the matchup table (the row entry's win %,
each cell annotated) beside histograms of the battles' lengths, in one figure, written as SVG
and PNG. matplotlib is imported when a picture is drawn, so nothing else pays for loading it;
the figure draws on the Agg canvas, with no window and no global pyplot state."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

NAMES = ("balance.svg", "balance.png")
DARK = 25                     # cells this far from 50% take white text
UNPLAYED = "#e4e4e4"          # a cell no battle played (an entry against itself)
MOST_BINS = 40


def draw(report: Mapping[str, Any], lengths: Mapping[str, Sequence[int]], folder: Path) -> list[Path]:
    """Write the picture into `folder`; `lengths` holds each battle's decisions and turns."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    table = report["matchups"]
    down, across, _ = axes_of(table)
    figure = Figure(figsize=(9 + 0.9 * len(across), max(5.0, 1.5 + 0.35 * len(down))))
    FigureCanvasAgg(figure)
    grid = figure.add_gridspec(2, 2, width_ratios=(3, 2))
    heat_map(figure.add_subplot(grid[:, 0]), table)
    histogram(figure.add_subplot(grid[0, 1]), lengths["turns"], "turns (the game's count)")
    histogram(figure.add_subplot(grid[1, 1]), lengths["decisions"], "decisions")
    parameters = report["parameters"]
    figure.suptitle(f"{parameters['ruleset']} {parameters['version']}: {report['battles']} battles, "
                    f"{' v '.join(parameters['bots'])}, seed {parameters['seed']}")
    figure.tight_layout()
    paths = [folder / name for name in NAMES]
    # A fixed salt and no date: the same report draws the same SVG.
    with matplotlib.rc_context({"svg.hashsalt": "balance"}):
        figure.savefig(paths[0], metadata={"Date": None})
    figure.savefig(paths[1], dpi=120)
    return paths


def heat_map(axes: Any, table: Mapping[str, Any]) -> None:
    """The row entry's win % against each column entry. A table of one row is drawn standing
    up (its columns down the side), so that it stays readable."""
    import matplotlib

    rows = table["rows"]
    rates = {(c["row"], c["column"]): c["rate"] for c in table["cells"]}
    down, across, standing = axes_of(table)
    grid = [[cell_rate(rates, (a, d) if standing else (d, a)) for a in across] for d in down]
    colours = matplotlib.colormaps["RdBu"].with_extremes(bad=UNPLAYED)
    image = axes.imshow(grid, cmap=colours, vmin=0, vmax=100, aspect="auto")
    for y, line in enumerate(grid):
        for x, rate in enumerate(line):
            if rate == rate:            # not NaN: a cell that was played
                axes.text(x, y, f"{rate:.0f}%", ha="center", va="center", fontsize=9,
                          color="white" if abs(rate - 50) > DARK else "black")
    axes.set_xticks(range(len(across)), labels=across, rotation=30, ha="right")
    axes.set_yticks(range(len(down)), labels=down)
    axes.set_title(f"win % of {rows[0]}" if standing else "win % of the row entry against the column entry",
                   fontsize=10)
    axes.figure.colorbar(image, ax=axes, fraction=0.04)


def axes_of(table: Mapping[str, Any]) -> tuple[list[str], list[str], bool]:
    """The entries down the heat map's side and across it, and whether it stands (a table of
    one row drawn with its columns down the side)."""
    rows, columns = table["rows"], table["columns"]
    standing = len(rows) == 1 and len(columns) > 1
    return (columns, rows, True) if standing else (rows, columns, False)


def cell_rate(rates: Mapping[tuple[str, str], float | None], key: tuple[str, str]) -> float:
    rate = rates.get(key)
    return float("nan") if rate is None else 100 * rate


def histogram(axes: Any, values: Sequence[int], what: str) -> None:
    low, high = (min(values), max(values)) if values else (0, 0)
    # One bar a value while they fit, centred on it; a count is whole.
    bins: Any = [v - 0.5 for v in range(low, high + 2)] if high - low < MOST_BINS else MOST_BINS
    axes.hist(values, bins=bins, color="#4a7ab0")
    axes.set_xlabel(what)
    axes.set_ylabel("battles")
