"""Turns: each seat goes through several steps (say, exchange then play-or-pass) before the next seat."""

from __future__ import annotations

from rulelang.interpreter.phases import Phase, seats_from


class Turns(Phase):
    """Runs ``steps`` for one seat at a time, in the direction of play from ``start``; the steps
    see only that seat (``State.only_seat``) and the phase delegates every action to the step."""

    public = False

    @staticmethod
    def enter(st, phase) -> bool:
        st.turn_seats = seats_from(st, phase.start.fn(st, None), st.active)
        st.turn_pos, st.step_pos = 0, -1
        return not Turns._advance(st, phase)

    @staticmethod
    def _advance(st, phase) -> bool:
        """Move to the next step that waits for an action; True when every seat has had its turn."""
        from rulelang.interpreter.handlers import HANDLERS
        while st.turn_pos < len(st.turn_seats):
            st.only_seat = st.turn_seats[st.turn_pos]
            st.step_pos += 1
            while st.step_pos < len(phase.steps):
                step = phase.steps[st.step_pos]
                if step.when is None or step.when.fn(st, None):
                    st.sub_phase, st.sub_handler = step, HANDLERS[step.kind]
                    if st.sub_handler.enter(st, step):
                        return False
                st.step_pos += 1
            st.turn_pos, st.step_pos = st.turn_pos + 1, -1
        st.only_seat = st.sub_phase = st.sub_handler = None
        return True

    @staticmethod
    def legal(st, phase):
        return st.sub_handler.legal(st, st.sub_phase)

    @staticmethod
    def seer(st, phase, action):
        return st.sub_handler.seer(st, st.sub_phase, action)

    @staticmethod
    def apply(st, phase, action) -> bool:
        if st.sub_handler.apply(st, st.sub_phase, action):
            return Turns._advance(st, phase)
        return False

    @staticmethod
    def explain(st, phase, action):
        return st.sub_handler.explain(st, st.sub_phase, action)
