"""Every purpose Empires in Arms rolls for, so a GM's forced dice are checked when set
(`pbem gm dice`); the case corpus fails on a roll of a purpose not declared here. A
battle's and a siege's dice are keyed by its id (`Ulm/day1/round1/attacker`,
`Ulm-siege/assault-attempt`)."""

from __future__ import annotations

from pbem.core.dice import DicePurpose

_SIDE = "attacker|defender"

DICE_PURPOSES = (
    DicePurpose("forage", 6, "§7.4.1.1"),
    DicePurpose("besieged-supply", 6, "§7.4.5"),
    DicePurpose("evade", 6, "§10.1.2.2.3"),
    DicePurpose("guerrillas", 6, "§10.1.1.1.2"),
    DicePurpose("anti-guerrilla", 6, "§10.1.1.2"),
    DicePurpose(f"<battle>/day<n>/round<n>/{_SIDE}", 6, "§7.5.2.9"),
    DicePurpose(f"<battle>/day<n>/round<n>/{_SIDE}/outflank|guard|bombardment", 6,
                "outflank §7.5.2.12.1, guard §12.3.4.4, bombardment §12.3.5.4"),
    DicePurpose("<battle>/day<n>/withdraw", 6, "§7.5.2.5.2.2"),
    DicePurpose("<battle>/day<n>/withdraw/<unit>", 6, "§7.5.2.5.2.2, §10.1.2.2.3"),
    DicePurpose("<battle>/day<n>/reinforce/<group>/round<n>", 6, "§7.5.2.11.2"),
    DicePurpose("<battle>/day<n>/reinforce/<group>/round<n>/<unit>", 6, "§7.5.2.11.2"),
    DicePurpose("<battle>/pursuit", 6, "§7.5.2.10.2.3"),
    DicePurpose(f"<battle>/{_SIDE}/leader-casualty/1|2|fate", 6, "§12.7"),
    DicePurpose(f"<battle>/{_SIDE}/leader-casualty/who", None, "§12.7"),  # which leader present
    DicePurpose("<siege>/assault-attempt", 6, "§7.5.4.1"),
    DicePurpose("<siege>/sortie", 6, "§7.5.4.1.2.1"),
    # Option 12.3.6: the contingents' competitive dice for an odd loss or the cavalry's,
    # rolled again (`/<n>`) while tied (EIA-I244).
    DicePurpose(f"<battle>/day<n>/round<n>/{_SIDE}/odd-loss<n>|cavalry/<power>", 6, "12.3.6"),
    DicePurpose(f"<battle>/day<n>/round<n>/{_SIDE}/odd-loss<n>|cavalry/<n>/<power>", 6, "12.3.6"),
    DicePurpose(f"<battle>/pursuit/{_SIDE}/odd-loss<n>|cavalry/<power>", 6, "12.3.6"),
    DicePurpose(f"<battle>/pursuit/{_SIDE}/odd-loss<n>|cavalry/<n>/<power>", 6, "12.3.6"),
)
