"""Checks that a drawn figure reads: no two tick labels overprint, annotations stay in place.

Used by tests/test_plotting.py and tests/test_bench_report.py. Each function
draws the figure with its own canvas (Agg in the tests) and measures the text
as rendered, in display pixels.
"""

from __future__ import annotations

TOLERANCE_PX = 0.5  # boxes that merely touch do not overprint


def _renderer(fig):
    fig.canvas.draw()  # tick labels and layout are computed at draw time
    return fig.canvas.get_renderer()


def _overlap(a, b, tol=TOLERANCE_PX) -> bool:
    return a.x0 < b.x1 - tol and b.x0 < a.x1 - tol and a.y0 < b.y1 - tol and b.y0 < a.y1 - tol


def shown_tick_labels(fig, renderer=None):
    """``[(axis_name, [(text, bbox), ...]), ...]``: each axis's visible, non-empty tick labels.

    A tick outside the axis's view limits is not drawn, so its label is left out.
    """
    renderer = renderer or _renderer(fig)
    out = []
    for i, ax in enumerate(fig.axes):
        frame = ax.get_window_extent(renderer)
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if not axis.get_visible():
                continue
            shown = []
            for label in axis.get_ticklabels(which="both"):
                if not (label.get_visible() and label.get_text().strip()):
                    continue
                box = label.get_window_extent(renderer)
                centre = (box.x0 + box.x1) / 2 if name == "x" else (box.y0 + box.y1) / 2
                lo, hi = (frame.x0, frame.x1) if name == "x" else (frame.y0, frame.y1)
                if lo - 1 <= centre <= hi + 1:
                    shown.append((label.get_text(), box))
            out.append((f"axes {i} ({ax.get_title()[:30]!r}) {name}", shown))
    return out


def tick_label_overlaps(fig) -> list[str]:
    """Pairs of tick labels of one axis whose boxes overprint, as readable lines."""
    problems = []
    for name, labels in shown_tick_labels(fig):
        for k, (text_a, box_a) in enumerate(labels):
            for text_b, box_b in labels[k + 1 :]:
                if _overlap(box_a, box_b):
                    problems.append(f"{name}: {text_a!r} overprints {text_b!r}")
    return problems


def assert_ticks_readable(fig) -> None:
    """No two tick labels of one axis overprint, and at least one label is shown."""
    assert any(labels for _, labels in shown_tick_labels(fig)), "no tick labels at all"
    problems = tick_label_overlaps(fig)
    assert not problems, "\n".join(problems)


def annotation_problems(fig) -> list[str]:
    """Texts drawn in the axes (bar labels, notes) that leave the axes or the figure, or
    overprint a title."""
    renderer = _renderer(fig)
    page = fig.bbox
    titles = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        titles += [t for t in (ax.title, ax._left_title, ax._right_title) if t.get_text()]
    title_boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in titles if t.get_text()]
    problems = []
    for ax in fig.axes:
        frame = ax.get_window_extent(renderer)
        for text in ax.texts:
            if not (text.get_visible() and text.get_text().strip()):
                continue
            box = text.get_window_extent(renderer)
            shown = text.get_text().replace("\n", " ")
            if not (
                page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 <= box.y1 <= page.y1
            ):
                problems.append(f"{shown!r} leaves the figure")
            if not (frame.x0 - 1 <= box.x0 and box.x1 <= frame.x1 + 1
                    and frame.y0 - 1 <= box.y0 and box.y1 <= frame.y1 + 1):  # fmt: skip
                problems.append(f"{shown!r} leaves its axes")
            for title, title_box in title_boxes:
                if _overlap(box, title_box):
                    problems.append(f"{shown!r} overprints the title {title!r}")
    return problems


def assert_annotations_in_place(fig) -> None:
    problems = annotation_problems(fig)
    assert not problems, "\n".join(problems)


def assert_readable(fig) -> None:
    """Both checks: tick labels apart, annotations inside their axes and off the titles."""
    assert_ticks_readable(fig)
    assert_annotations_in_place(fig)
