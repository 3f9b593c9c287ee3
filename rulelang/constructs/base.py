"""What every construct has, with the defaults most of them keep.

A construct is one class that carries everything about one kind of phase: an ``example``
of its document form; its document shape (``schema``, ``limits``); its DSL rules (``dsl``);
its compilation (``compile``, ``symbols``, ``deal_vars``); its checks (``count_cards`` for
the deal arithmetic, ``blocked`` for the flow graph, further checks registered with
:func:`rulelang.validators.checks.check` in the same module); its runtime (``enter``,
``legal``, ``apply``, ``seer``, ``explain``, ``draws``/``apply_drawn``, ``after_trick``); what it adds to
what a seat sees (``observe``, ``informs``, ``hidden``); its deal record (``deal_result``,
``record``); its English (``english``), its ``fmt`` rendering (``fmt``), how ``diff`` shows
it (``diff_keys``, and ``identity``: the key that says two phases are the same one), its
narration (``words``, ``action_words``, ``private_words``) and its diagnostic codes
(``codes``). The generic stages iterate over the registered constructs
(:func:`rulelang.constructs.constructs`) and never name one.

What a construct provides for each engine, in one place:

- the scalar engine (:class:`~rulelang.interpreter.state.State`, every agent, the adapters): the
  runtime hooks above — ``enter``, ``legal``, ``apply``, ``seer``, ``draws``/``apply_drawn``,
  ``observe``, ``hidden`` — all with defaults here;
- the batch engine (``simulate --engine batch``): ``batch_kernel``, which names its kernel as
  ``"module:NAME"`` (a :class:`~rulelang.batch.kernels.Kernel` in :mod:`rulelang.batch`, imported only
  by that engine, so a construct never imports numpy). None: the batch engine refuses a game with
  this phase. :func:`rulelang.constructs.batch_kernels` lists the kinds it covers.

A construct that keeps deal state declares a :class:`DealPart` subclass as ``part``; the
State then holds one instance per deal at the attribute named ``kind`` (``st.piles``),
made anew at each deal and copied by ``clone`` and the undo stack while a phase that may change
it is running or to come. A construct whose ``enter`` first replaces its slice by a copy (or a new
one) says so with ``renews_part``: before its phase begins nothing changes the slice, and a clone
shares it. The State's shared containers (``State.SHARED``) are replaced on write
(``st.put``), except those a construct names in ``writes`` (the exchange writes ``discards``
card by card): those it may change in place, and a clone copies them while its phase is
running or to come. ``writes`` may also name another construct's slice that a later phase
changes (``declare`` writes the ``strain_auction`` slice: the contract named is the standing call).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, NamedTuple

from rulelang.compile.deck import bit_list
from rulelang.diagnostics import Diagnostic

CHANCE = -1
Lines = list[str]
bits = bit_list


class DiffKey(NamedTuple):
    """How ``rulelang diff`` shows one key of a phase: in the phase's line (``text``), as the value
    of a changed key (``value``), or entry by entry as a mapping (``expanded``)."""

    text: Callable[[Any], str] | None = None
    value: Callable[[Any], Any] | None = None
    expanded: bool = False


class DealPart:
    """One construct's slice of deal state: plain fields, and the containers named in ``copied``."""

    __slots__ = ()
    copied: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game) -> None:
        """A fresh slice for a new deal of ``game`` (subclasses set their fields)."""

    def copy(self) -> "DealPart":
        """An independent copy: the fields shared, the containers in ``copied`` copied."""
        other = object.__new__(self.__class__)
        fields = self.__dict__.copy()
        for name in self.copied:
            fields[name] = fields[name].copy()
        other.__dict__ = fields
        return other


def seats_from(st, start: int, mask: int) -> list[int]:
    """The seats of ``mask`` in the direction of play, beginning at ``start`` (or the next one in mask)."""
    cache = st.game.seat_orders
    key = (start, mask)
    order = cache.get(key)
    if order is None:
        n, step = st.game.num_players, st.game.definition.step
        order = cache[key] = [seat for seat in ((start + i * step) % n for i in range(n)) if mask >> seat & 1]
    return list(order)


def turn_order(st, start: int, mask: int) -> list[int]:
    """``seats_from``, narrowed to ``st.only_seat`` when the phase runs as one seat's step of a turn."""
    order = seats_from(st, start, mask)
    if st.only_seat is not None:
        return [seat for seat in order if seat == st.only_seat]
    return order


def permitted(st, part, field: str, values, forbid, seat: int, first: bool = False) -> list:
    """The ``values`` a ``forbid`` rule lets ``seat`` take: each is set as ``part.<field>`` (what the rule reads
    as ``value``, ``card`` or ``number``) while the rule is asked, and the field is put back afterwards, so that
    weighing leaves no trace. All of them when there is no rule; with ``first``, only the first permitted."""
    values = list(values)
    if forbid is None:
        return values[:1] if first else values
    kept, out = getattr(part, field), []
    try:
        for value in values:
            setattr(part, field, value)
            if not forbid.fn(st, seat):
                out.append(value)
                if first:
                    break
    finally:
        setattr(part, field, kept)
    return out


def symbol(st, action: int) -> str:
    """The decision name an action stands for."""
    return st.game.symbols[action - st.game.symbol_base]


class Construct:
    """The defaults of a phase kind; each construct module subclasses it once as ``CONSTRUCT``."""

    kind: ClassVar[str] = ""
    order: ClassVar[int] = 1000
    summary: ClassVar[str] = ""
    example: ClassVar[Any] = None
    schema: ClassVar[dict] = {}
    codes: ClassVar[tuple[str, ...]] = ()
    dsl: ClassVar[dict[str, Callable]] = {}
    part: ClassVar[type[DealPart] | None] = None
    public: ClassVar[bool] = True
    step: ClassVar[bool] = False
    tallied: ClassVar[bool] = True
    keeps_hands: ClassVar[bool] = False     # no card enters or leaves a hand in this phase but by trick play
    deals: ClassVar[bool] = False
    words: ClassVar[str] = ""
    redeals: ClassVar[bool] = False
    repeats: ClassVar[bool] = False
    diff_keys: ClassVar[dict[str, DiffKey]] = {}
    identity: ClassVar[str | None] = None
    count_cards: ClassVar[Callable | None] = None
    draws: ClassVar[Callable | None] = None
    apply_drawn: ClassVar[Callable | None] = None
    renews_part: ClassVar[bool] = False
    writes: ClassVar[tuple[str, ...]] = ()
    forms_sides: ClassVar[bool] = False   # its phase sets who the declarers are (st.side_mask)
    names_declarer: ClassVar[bool] = False  # its phase may name a declarer (st.declarer) and a contract
    batch_kernel: ClassVar[str | None] = None   # "module:NAME" of this kind's batch kernel; None: batch refuses it

    @classmethod
    def may_redeal(cls, phase) -> bool:
        """Whether ``phase`` may throw the cards in and deal again (the flow graph's edge back to the deal's
        start): ``redeals`` for every phase of the kind, unless the kind says per phase."""
        return cls.redeals

    # ------------------------------------------------------------------ document and compilation
    @staticmethod
    def compile(c, path: tuple, body: dict):
        """The IR of this phase from its document ``body`` at ``path`` (``c``: the game compiler)."""
        raise NotImplementedError

    @staticmethod
    def limits(body: dict):
        """(key path, message, hint) of each limit the schema leaves open but the engine needs (C107)."""
        return ()

    @staticmethod
    def symbols(c, body: dict) -> list[str]:
        """The decision names this phase adds to the game's actions (``c``: the game compiler)."""
        return []

    @staticmethod
    def deal_vars(c, body: dict) -> dict[str, str]:
        """The deal variables this phase declares, with their types."""
        return {}

    @staticmethod
    def named_contracts(body: dict) -> list[str]:
        """The contracts this phase may set ``contract`` to that are not under ``contracts``."""
        return []

    @staticmethod
    def option_names(body: dict) -> list[str]:
        """The names this phase lets expressions use as constants (its options)."""
        return []

    @staticmethod
    def steps_of(body: dict) -> list:
        """The phase entries this phase runs as its steps (``turns``)."""
        return []

    @staticmethod
    def inner_phases(phase) -> list:
        """The compiled phases this phase runs as its steps."""
        return []

    typed_later: ClassVar[bool] = False
    """True when the types of ``deal_vars`` are guesses that compilation settles (``set``)."""

    @staticmethod
    def dump(phase) -> str:
        """The rest of this phase's line in ``rulelang dump --stage ir``."""
        return ""

    # ------------------------------------------------------------------ checks
    @staticmethod
    def blocked(phase) -> str | None:
        """Why no deal can get past this phase whatever happens (G402), or None."""
        return None

    @staticmethod
    def outcomes(game, phase, values: dict) -> list[dict]:
        """The deal variables after this phase, one dict per value it may store (for the courses
        of a deal the checks follow); ``values`` are the variables before it."""
        return [values]

    @staticmethod
    def blocker_notes(doc, phase) -> list:
        """Notes for G402: where the blocked deal goes, or the rules that block it."""
        return []

    # ------------------------------------------------------------------ runtime
    @staticmethod
    def enter(st, phase) -> bool:
        """Start the phase; True when it now waits for an action."""
        return False

    @staticmethod
    def legal(st, phase) -> list[int]:
        """The legal actions now, ascending."""
        return []

    @staticmethod
    def apply(st, phase, action: int) -> bool:
        """Apply a legal action; True when the phase is over."""
        return True

    @staticmethod
    def seer(st, phase, action: int) -> int:
        """The seat that alone sees ``action`` (-2: nobody; -1: everyone)."""
        return -1

    @staticmethod
    def explain(st, phase, action: int) -> Diagnostic:
        """Why ``action`` is not legal now, located at the rule that forbids it."""
        name = st.action_to_string(action)
        return Diagnostic("E501", f"'{name}' is not a move that can be made now", getattr(phase, "span", None),
                          f"legal now: {', '.join(st.action_to_string(a) for a in st.legal_actions())}")

    @staticmethod
    def receiver(st, phase) -> int:
        """The seat the pending chance card goes to, -1 when it goes to no seat."""
        return -1

    @staticmethod
    def current_step(st, phase):
        """The phase whose rules apply to the next action (a phase that runs steps names its step)."""
        return phase

    # ------------------------------------------------------------------ what seats see, and the record
    @staticmethod
    def observe(st, player: int) -> dict:
        """What this construct adds to ``observation(player)``: public facts and ``player``'s own."""
        return {}

    @staticmethod
    def informs(st, player: int) -> str:
        """What ``player`` has learnt outside the history's actions, for its information state string."""
        return ""

    @staticmethod
    def places(st) -> dict[str, int]:
        """The card places this construct holds now, by name (see ``State.card_places``)."""
        return {}

    @staticmethod
    def hidden(st, seat: int) -> list[tuple[str, int, int]]:
        """(this construct's kind, index, mask) of the places it holds that ``seat`` cannot see."""
        return []

    @staticmethod
    def passed_at_once(st) -> list[int]:
        """The seats that passed in this phase's auction without a bid or word of their own before it: each said
        its hand was not worth the lowest thing it could have said (what a player reading the auction infers,
        :mod:`~rulelang.interpreter.agents.passes`). Default none."""
        return []

    @staticmethod
    def implied_voids(st, observer: int, voids: list[int]) -> None:
        """Add to ``voids`` (per seat) the cards a seat cannot hold by what everyone heard it say (a seat
        that called for the defenders of ``parties`` holds none of the cards that make declarers)."""

    @staticmethod
    def acts_for(st, seat: int) -> int:
        """The seat that chooses the move when ``seat`` is to act (another seat plays a dummy's cards)."""
        return seat

    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        """Per seat, cards everyone knows it holds (a card it took up in sight of all): no world deals them
        anew."""
        return {}

    @staticmethod
    def holdings_known_to(st, seat: int) -> dict[int, int]:
        """Per other seat, cards ``seat`` alone knows it holds (cards ``seat`` passed to it): no world of
        ``seat``'s deals them anew."""
        return {}

    @staticmethod
    def answers(st, phase, legal: list[int]) -> list[int]:
        """Of the legal moves, the doublings a rollout's seat says when its side comes out ahead (players that judge
        by rollouts): what doubles again what the other side doubled, or in a strain auction the double of the
        other side's bid and the redouble. Default none."""
        return []

    @staticmethod
    def worth_judging(st, phase, legal: list[int]) -> list[int]:
        """Of the legal moves, those a player that judges by sampled playouts need weigh (default all)."""
        return legal

    @staticmethod
    def said(st, phase, action: int) -> list[tuple]:
        """What ``action``, about to be made by ``st.current``, says about the mover's hand: ``(rule, value)``
        pairs, each a rule that held for the mover's hand with that value (``None``: held true), as a bid's
        condition did for the bidder. Agents keep worlds in which the mover's hand then gave the same."""
        return []

    @staticmethod
    def side_word(st, phase, action: int) -> bool:
        """Whether ``action`` is a word said beside the contract — an announcement or a doubling, not a bid —
        whose worth a player may estimate from the hand before weighing it by playouts
        (``interpreter/agents/bids.py``). Default False."""
        return False

    @staticmethod
    def evidence(st, phase, action: int) -> float:
        """How much evidence a player that judges by sampled playouts should want before it takes ``action``
        rather than the quiet option, in units of its usual margin: more for a bolder move (a higher
        contract, a later doubling step). Default 1."""
        return 1.0

    @staticmethod
    def public_discards(st) -> dict[int, int]:
        """Per seat, discards laid face up for everyone (``take_talon``'s ``show_discard``): no world moves them."""
        return {}

    @staticmethod
    def held_or_discarded(st) -> dict[int, int]:
        """Per seat, cards everyone knows it holds or has discarded, but not which (talon cards taken up in
        sight of all, then some discarded face down): a world keeps them with the seat and splits them
        anew between its hand and its discards."""
        return {}

    @staticmethod
    def public_cards(st) -> int:
        """Cards lying outside the hands whose place everyone knows (a talon laid open): no world moves them."""
        return 0

    @staticmethod
    def may_discard(world, seat: int, card: int) -> bool:
        """Whether ``seat`` could have discarded ``card`` here, for a world that splits a seat's cards anew
        between hand and discards (:meth:`held_or_discarded`)."""
        return True

    @staticmethod
    def must_hold(st, observer: int) -> dict[int, int]:
        """Per seat, cards of which it must hold at least one by what everyone heard it say (a seat that
        called for the declarers of ``parties`` without playing a party card holds one)."""
        return {}

    @staticmethod
    def world_fits(world, state, observer: int) -> bool:
        """Whether a world dealt anew for ``observer`` gives what this construct worked out from the hidden cards
        the same outcome (the melds that count, and so the cards shown): a cheap test before the world's
        history is replayed. Default True."""
        return True

    @staticmethod
    def reform(world) -> None:
        """After a world was dealt anew (an agent's determinization), redo what this construct derived
        from the hidden cards (the parties of ``parties``: who holds the cards that decide them)."""

    @staticmethod
    def after_trick(st) -> None:
        """React to a trick just finished (its cards and winner already recorded): a party that the
        tricks decide, as ``parties`` with ``join`` does. Called only in games with this phase kind."""

    @staticmethod
    def put_hidden(world, index: int, cards: int) -> None:
        """Give the hidden place ``index`` of :meth:`hidden` the cards ``cards`` (a world dealt anew).

        The world is a clone, which may share the slice of a finished phase with the real
        state: copy the slice before changing it (``world.piles = world.piles.copy()``)."""

    @staticmethod
    def deal_result(st) -> dict:
        """What this construct adds to the record of a finished deal."""
        return {}

    @staticmethod
    def record(st, step, actor: int, action: int, name: str, seat: str, deal: dict) -> None:
        """Note the action in the match record's ``deal`` (its ``dealt``, ``talon`` and ``decisions``).

        A decision is ``{"seat", "phase", "action"}``, with ``"private": True`` when only its
        seat saw it and ``"words"`` for the verb the narration uses (default "says")."""
        deal["decisions"].append({"seat": seat, "phase": step.kind, "action": name})

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        """What everyone sees a seat do with the action ``name`` in this phase (None: nothing)."""
        return f"says {name}"

    @staticmethod
    def private_words(st, step, action: int, name: str) -> str | None:
        """What the acting seat alone is told of an action the others do not see (None: nothing)."""
        return None

    # ------------------------------------------------------------------ prose
    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        """The phase in plain English, for ``rulelang explain``."""
        raise NotImplementedError

    @staticmethod
    def fmt(value: Any, pad: str) -> Lines | None:
        """The phase as a readable DSL statement, or None to print it as plain keys."""
        return None


WHEN = {"description": "A condition; the phase runs only when it holds (e.g. dealing == cut).",
        "$ref": "#/$defs/boolExpr"}
"""The schema of the ``when`` key every phase has."""
