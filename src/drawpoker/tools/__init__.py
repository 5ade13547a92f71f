"""Tools built on the engine, the room and the bots: random play and simulations
(``simulate``, ``tournament_sim``), sample hands (``samples``), duplicate bot
matches (``match``) and the discard advisor (``advisor``)."""
