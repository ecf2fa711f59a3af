-- Conversation order: neighbour expansion reads the turns just before and after a memory
-- in its conversation, two short index range scans per seed instead of a scan of the owner.
CREATE INDEX memories_conversation_order_idx
    ON memories (tenant, user_id, conversation_id, created_at, id)
    WHERE conversation_id IS NOT NULL;
