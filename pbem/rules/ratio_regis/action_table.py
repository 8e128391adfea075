"""The actions of a power (§9) and the procedure that carries out each: the one table that
lists them, in the grammar's order (an action's grammar is in `orders.lark`, its procedure
in the module named after the game's concept it belongs to). Nothing registers itself."""

from __future__ import annotations

from pbem.rules.ratio_regis import (alliances, commerce, expeditions, fortresses, landing, leaders, naval,
                                    naval_actions, negotiation, piracy, sea_moves, sieges, tactical, troops, unrest, war)
from pbem.rules.ratio_regis.actions import Action
from pbem.rules.ratio_regis.orders import (Ally, Assault, Attach, BuildLeader, BuildMerchant, BuildSquadron, BuildTroop,
                                           Cede, DeclareWar, Dissolve, FormFleet, Fort, Home, Land, LowerUnrest, Move,
                                           Naval, PeaceTalks, Piracy, Recall, Regroup, Repair, Sail, Sortie,
                                           StratSquadron, StratStack, StratTroop, Subjugate, Subsidise, Swap)

ACTIONS: dict[type, Action] = {
    BuildTroop: troops.build_troop,
    BuildSquadron: naval.build_squadron,
    BuildMerchant: commerce.build_merchant,
    Regroup: troops.regroup,
    StratTroop: troops.strategic_troop,
    StratSquadron: naval.strategic_squadron,
    StratStack: sea_moves.strategic_stack,
    Home: troops.move_home,
    Repair: naval.repair,
    Fort: fortresses.fortress,
    BuildLeader: leaders.build_leader,
    Move: tactical.move,
    Land: landing.land,
    Subjugate: tactical.subjugate,
    Assault: sieges.assault,
    Sortie: sieges.sortie,
    Naval: naval_actions.naval_attack,
    Piracy: piracy.piracy,
    DeclareWar: war.declare_war,
    Sail: naval.sail,
    Swap: leaders.swap_leaders,
    FormFleet: naval.form_fleet,
    Attach: leaders.attach_leader,
    Ally: alliances.declare_alliance,
    Cede: expeditions.cede,
    Recall: expeditions.recall,
    Dissolve: naval.dissolve,
    PeaceTalks: negotiation.ask_for_peace,
    LowerUnrest: unrest.lower_unrest,
    Subsidise: unrest.subsidise,
}
