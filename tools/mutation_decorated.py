"""Let mutmut 3 mutate the course's decorated functions, which it otherwise passes over.

mutmut skips every function that has a decorator (but ``@staticmethod`` and
``@classmethod``), with all its body, and says nothing: a decorator runs when the function
is defined, and its copies of the function (the original and each mutant) would each be
decorated again. In the course that hid the checkers' own entry points (``@one_cpu_thread``
on ``check_one_f_one_b`` and eight others), every watch written as a ``@contextmanager``, and
the wrappers that ``@functools.wraps`` marks inside them: their lines never reached a test.

:func:`install` changes two of mutmut's steps, in the process that runs it:

- a function whose every decorator is one of :data:`WRAPPERS` (decorators that only wrap the
  function they are given, and keep no state of their own across mutants), and any function
  nested in another (its decorators run when the outer one does), is mutated as the rest;
- the trampoline, the function's public name, keeps the decorators, and the copies it
  forwards to (``x_f__mutmut_orig`` and each mutant) have none, so each call is decorated
  once, as in the course.
"""

from __future__ import annotations

import libcst as cst

# Decorators that wrap the function and keep nothing between calls that a mutant could leave
# behind (a cache starts empty in each mutant's copy: copies are forked from a process that
# ran no test).
WRAPPERS = frozenset(
    {
        "contextmanager",
        "contextlib.contextmanager",
        "one_cpu_thread",
        "functools.cache",
        "functools.lru_cache",
    }
)


def dotted(node: cst.BaseExpression) -> str:
    """``a.b.c`` of a decorator's expression (its call's function, for ``@f(...)``)."""
    if isinstance(node, cst.Call):
        return dotted(node.func)
    if isinstance(node, cst.Attribute):
        return f"{dotted(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""


def only_wrappers(function: cst.FunctionDef) -> bool:
    """Whether every decorator of ``function`` is one of :data:`WRAPPERS`."""
    return all(dotted(d.decorator) in WRAPPERS for d in function.decorators)


def install() -> None:
    """Patch mutmut, in this process, as the module's docstring says."""
    from mutmut.mutation import file_mutation

    visitor = file_mutation.MutationVisitor
    skip, arrange = visitor._skip_node_and_children, file_mutation.function_trampoline_arrangement

    def skip_node_and_children(self, node: cst.CSTNode) -> bool:
        if not isinstance(node, cst.FunctionDef) or not node.decorators:
            return skip(self, node)
        outer = self.get_metadata(file_mutation.OuterFunctionProvider, node, None)
        nested = outer is not None and outer is not node
        if not (nested or only_wrappers(node)):
            return skip(self, node)
        position = self.get_metadata(file_mutation.PositionProvider, node, None)
        if position and position.start.line in self._ignored_node_lines:
            return skip(self, node)  # a pragma on its line: skipped, as any function
        return skip(self, node.with_changes(decorators=[]))

    def function_trampoline_arrangement(function: cst.FunctionDef, mutants, class_name):
        if not function.decorators or not only_wrappers(function):
            return arrange(function, mutants, class_name)
        bare = function.with_changes(decorators=[])  # the same body: the mutations still match
        declared, nodes, assigned, names = arrange(bare, mutants, class_name)
        trampoline = nodes[0].with_changes(decorators=[*function.decorators, *nodes[0].decorators])
        return declared, [trampoline, *nodes[1:]], assigned, names

    visitor._skip_node_and_children = skip_node_and_children
    file_mutation.function_trampoline_arrangement = function_trampoline_arrangement
