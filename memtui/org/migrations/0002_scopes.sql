-- Scopes enforced by the database: row-level security over the connecting role. Everyone granted
-- memtui_member reads and writes `org`; a team's memories belong to the roles listed for it in
-- memtui_members (kept by the database administrator); `person` rows to their owner alone.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memtui_member') THEN
        CREATE ROLE memtui_member NOLOGIN;
    END IF;
END $$;

CREATE TABLE memtui_members (
    team text NOT NULL CHECK (team ~ '^[a-z0-9][a-z0-9_.-]{0,62}$'),
    role name NOT NULL,
    PRIMARY KEY (team, role)
);

-- Whether the connecting role may see and change memories of `scope` owned by `owner`. Run as the
-- caller (not SECURITY DEFINER, where current_user would be this function's owner): the membership
-- lookup sees only the caller's own rows of memtui_members, which is all it asks about.
CREATE FUNCTION memtui_may(scope text, owner name) RETURNS boolean LANGUAGE sql STABLE
SET search_path = pg_catalog, public AS $$
    SELECT CASE
        WHEN scope = 'org' THEN true
        WHEN scope = 'person' THEN owner = current_user
        WHEN scope LIKE 'team:%' THEN EXISTS (
            SELECT 1 FROM memtui_members m WHERE m.team = substr(scope, 6) AND m.role = current_user)
        ELSE false
    END
$$;

ALTER TABLE memtui_memories ENABLE ROW LEVEL SECURITY;
ALTER TABLE memtui_audit ENABLE ROW LEVEL SECURITY;
ALTER TABLE memtui_members ENABLE ROW LEVEL SECURITY;

CREATE POLICY memtui_read ON memtui_memories FOR SELECT USING (memtui_may(scope, owner));
-- A new row is the writer's own (no forged authorship) and in a scope it belongs to.
CREATE POLICY memtui_insert ON memtui_memories FOR INSERT WITH CHECK (owner = current_user AND memtui_may(scope, owner));
CREATE POLICY memtui_update ON memtui_memories FOR UPDATE USING (memtui_may(scope, owner)) WITH CHECK (memtui_may(scope, owner));
CREATE POLICY memtui_delete ON memtui_memories FOR DELETE USING (memtui_may(scope, owner));
CREATE POLICY memtui_audit_read ON memtui_audit FOR SELECT USING (memtui_may(scope, owner));
CREATE POLICY memtui_members_read ON memtui_members FOR SELECT USING (role = current_user);

GRANT SELECT, INSERT, UPDATE, DELETE ON memtui_memories TO memtui_member;
GRANT SELECT ON memtui_audit, memtui_members, schema_migrations TO memtui_member;
REVOKE ALL ON FUNCTION memtui_stamp(), memtui_journal() FROM PUBLIC;
