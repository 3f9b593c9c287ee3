"""The document shape of a ``tricks`` phase (its JSON Schema fragment), kept apart from the construct so that
:mod:`rulelang.constructs.tricks` stays readable."""

from rulelang.constructs.base import WHEN
from rulelang.constructs.trick_calls import SCHEMA as CALLS_SCHEMA
from rulelang.constructs.trick_finish import ENDS_WHEN, GIFT, KEPT
from rulelang.constructs.trick_draw import SCHEMA as DRAW

FREE = {'description': 'Cards that may be played at any turn instead of what follow and lead_from ask, and '
                       'that do not count as holding a set the rules ask for, e.g. French Tarot\'s Excuse: '
                       '"{\'Excuse\'}".',
        '$ref': '#/$defs/cardsExpr'}
"""The schema of the ``free`` key of trick rules."""

SCHEMA = {'entry': 'Trick play.',
          'defs': {'tricksPhase': {'title': 'a mapping with among, lead, follow, win and alone',
                                   'description': 'Trick play.',
                                   'type': 'object',
                                   'additionalProperties': False,
                                   'required': ['among', 'lead', 'follow', 'win'],
                                   'properties': {'among': {'description': 'Who plays, a seat-set expression '
                                                                           'such as active.',
                                                            '$ref': '#/$defs/seatsExpr'},
                                                  'lead': {'description': 'Who leads the first trick; later the '
                                                                          'winner of each trick leads.',
                                                           '$ref': '#/$defs/seatExpr'},
                                                  'follow': {'description': 'Card sets in order: a player must '
                                                                            'play from the first one that meets '
                                                                            'his hand, e.g. [led_suit, trump, '
                                                                            'any].',
                                                             'type': 'array',
                                                             'minItems': 1,
                                                             'items': {'$ref': '#/$defs/cardsExpr'}},
                                                  'win': {'description': 'Rules in order; the first that applies '
                                                                         "picks the trick's winner, e.g. "
                                                                         '[{highest: trump}, {highest: '
                                                                         'led_suit}].',
                                                          'type': 'array',
                                                          'minItems': 1,
                                                          'items': {'$ref': '#/$defs/winRule'}},
                                                  'alone': {'description': 'takes_all: a seat alone among the '
                                                                           'players takes every trick without '
                                                                           'play; play (default): it plays '
                                                                           'alone.',
                                                            'enum': ['takes_all', 'play']},
                                                  'when': WHEN,
                                                  'lead_from': {'description': 'Card sets in order for the '
                                                                               'leader: he must lead from the '
                                                                               'first one that meets his hand '
                                                                               '(default: any card).',
                                                                'type': 'array',
                                                                'minItems': 1,
                                                                'items': {'$ref': '#/$defs/cardsExpr'}},
                                                  'head': {'description': 'true: a player must beat the best '
                                                                          'card so far if he legally can '
                                                                          '(Stichzwang).',
                                                           'type': 'boolean'},
                                                  'calls': CALLS_SCHEMA,
                                                  'later_copy_wins': {'description': 'In a pack with copies: '
                                                                                     'the cards of which a copy '
                                                                                     'played later beats an '
                                                                                     'earlier one (default none: '
                                                                                     'the first played wins).',
                                                                      '$ref': '#/$defs/cardsExpr'},
                                                  'ends_when': ENDS_WHEN,
                                                  'kept': KEPT,
                                                  'free': FREE,
                                                  'gift': GIFT,
                                                  'draw': DRAW,
                                                  'melds': {'description': 'Combinations in a trick that score for '
                                                                           'its winner, read as '
                                                                           'trick_melds(SEATS): the kinds as in a '
                                                                           'meld phase, asked of the cards of '
                                                                           'each finished trick.',
                                                            '$ref': '#/$defs/meldKinds'}}},
                   'winRule': {'title': 'a rule like {highest: trump} or {card: "\'I\'", when: ...}',
                               'description': "A rule that picks a trick's winner.",
                               'type': 'object',
                               'additionalProperties': False,
                               'properties': {'highest': {'description': 'The highest card of the trick in this '
                                                                         'card set wins (by rank within its '
                                                                         'suit).',
                                                          '$ref': '#/$defs/cardsExpr'},
                                              'card': {'description': 'This card wins the trick when it is in it '
                                                                      'and the condition holds (a special '
                                                                      'winner).',
                                                       '$ref': '#/$defs/expr'},
                                              'when': {'description': 'The condition for a card rule.',
                                                       '$ref': '#/$defs/boolExpr'},
                                              'order': {'description': 'With highest: the ranks high to low by '
                                                                       'which these cards compare instead of the '
                                                                       "deck's (a trump suit's own order: [J, '9', "
                                                                       "A, '10', K, Q, '8', '7']); ranks left out "
                                                                       'rank below, in the deck\'s order.',
                                                        'type': 'array', 'minItems': 1, 'maxItems': 64,
                                                        'items': {'type': ['string', 'integer']}}},
                               'oneOf': [{'required': ['highest']}, {'required': ['card']}],
                               'dependentRequired': {'order': ['highest']}}}}
"""The JSON Schema fragment of ``tricks`` phases (see :attr:`Construct.schema`)."""
