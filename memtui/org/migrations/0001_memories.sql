-- The organisation's memories: one row per memory, the memory itself as state.json holds it (`raw`),
-- with the columns the server filters, searches and audits by taken out of it.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE SEQUENCE memtui_change_seq;

CREATE TABLE memtui_memories (
    id text PRIMARY KEY,
    -- org, team:NAME or person (whose: `owner`).
    scope text NOT NULL CHECK (scope IN ('org', 'person') OR scope ~ '^team:[a-z0-9][a-z0-9_.-]{0,62}$'),
    -- The role that first wrote it; a person scope's memories are its owner's alone.
    owner name NOT NULL DEFAULT current_user,
    type text NOT NULL,
    status text NOT NULL CHECK (status IN ('active', 'superseded', 'archived')),
    reviewed boolean NOT NULL,
    content text NOT NULL,
    -- Provenance (core/memory.py Source): the session, hook event, agent and origin that captured it.
    session text,
    event text,
    agent text,
    origin text,
    raw jsonb NOT NULL,
    words tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
    embedding vector(384),
    created timestamptz NOT NULL,
    updated timestamptz NOT NULL,
    -- Who changed it last and the change sequence number of that change (the replicas' cursor).
    changed_by name NOT NULL DEFAULT session_user,
    seq bigint NOT NULL
);
CREATE INDEX memtui_memories_words ON memtui_memories USING gin (words);
CREATE INDEX memtui_memories_scope ON memtui_memories (scope, status);
CREATE INDEX memtui_memories_seq ON memtui_memories (seq);

-- The server's journal: every insert, update and delete, by whom and when, filled by a trigger so no
-- client can skip it or write it.
CREATE TABLE memtui_audit (
    seq bigint PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    who name NOT NULL,
    op text NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
    id text NOT NULL,
    scope text NOT NULL,
    owner name NOT NULL,
    before jsonb,
    after jsonb
);
CREATE INDEX memtui_audit_id ON memtui_audit (id);
CREATE INDEX memtui_audit_scope ON memtui_audit (scope, seq);

CREATE FUNCTION memtui_stamp() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    NEW.seq := nextval('memtui_change_seq');
    NEW.changed_by := session_user;
    IF TG_OP = 'UPDATE' THEN
        NEW.owner := OLD.owner;  -- authorship never changes hands
    END IF;
    RETURN NEW;
END $$;

CREATE FUNCTION memtui_journal() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO memtui_audit (seq, who, op, id, scope, owner, before, after)
        VALUES (nextval('memtui_change_seq'), session_user, 'delete', OLD.id, OLD.scope, OLD.owner, OLD.raw, NULL);
        PERFORM pg_notify('memtui_changes', OLD.scope);
        RETURN OLD;
    END IF;
    INSERT INTO memtui_audit (seq, who, op, id, scope, owner, before, after)
    VALUES (NEW.seq, session_user, lower(TG_OP), NEW.id, NEW.scope, NEW.owner,
            CASE WHEN TG_OP = 'UPDATE' THEN OLD.raw END, NEW.raw);
    IF TG_OP = 'UPDATE' AND OLD.scope <> NEW.scope THEN
        PERFORM pg_notify('memtui_changes', OLD.scope);
    END IF;
    PERFORM pg_notify('memtui_changes', NEW.scope);
    RETURN NEW;
END $$;

CREATE TRIGGER memtui_stamp BEFORE INSERT OR UPDATE ON memtui_memories
    FOR EACH ROW EXECUTE FUNCTION memtui_stamp();
CREATE TRIGGER memtui_journal AFTER INSERT OR UPDATE OR DELETE ON memtui_memories
    FOR EACH ROW EXECUTE FUNCTION memtui_journal();
