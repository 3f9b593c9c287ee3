"""The rendered views of a rule file: its rules in plain words (``explain``, ``reading``,
``trick_words``), the file printed back in either syntax (``fmt``, ``fmt_comments``) and what a
variant changes (``diff``); ``words`` holds the helpers they share.

Views read the document and the constructs' wording hooks; the engine never imports them.
"""
