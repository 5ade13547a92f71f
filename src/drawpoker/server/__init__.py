"""The game server: gateway, table actors, lobby, accounts, ledger, storage."""
