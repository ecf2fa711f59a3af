-- A key may trust Open WebUI's forwarded user headers (X-OpenWebUI-User-Id, -Chat-Id) to name
-- the user and the chat of a proxied request (docs/proxy.md). Off unless asked for.
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS trusts_openwebui_headers boolean NOT NULL DEFAULT false;
