"""The web table, hand replayer and solution viewer served by ``checkraise serve``.

:mod:`~checkraise.web.table` (one table of a person against bots),
:mod:`~checkraise.web.session` (sessions, their tables and the checked messages),
:mod:`~checkraise.web.replayer` (stored hands, street by street) and
:mod:`~checkraise.web.viewer` (a solved spot's tree and 13×13 grids) import no web
library, so they are tested without a server; :mod:`~checkraise.web.app` is the
Starlette application over them (the optional extra ``web``), and ``static/`` holds
the pages: plain HTML, CSS and JavaScript, no build step.
"""
