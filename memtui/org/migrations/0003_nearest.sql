-- Nearest-neighbour search of the vectors on the server (`memtui search --scope org`): pgvector's
-- HNSW index, by cosine distance, as the all-MiniLM vectors are compared.
CREATE INDEX memtui_memories_embedding ON memtui_memories USING hnsw (embedding vector_cosine_ops);
