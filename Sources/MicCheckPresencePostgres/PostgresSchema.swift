/// The tables and functions of presence in PostgreSQL, installed by ``PostgresPresence`` at start (each
/// statement idempotent, all of them in one transaction under an advisory lock, so that nodes starting
/// together do not race).
///
/// - `miccheck_calls`: one row a call, its `version`, bumped by every change.
/// - `miccheck_members`: who is in each call, held by which node; `seq` (the version of the join) keeps
///   the order of joining.
/// - `miccheck_nodes`: each node's lease, which holds all its members: the node renews one row every
///   third of the lease, however many members it holds (a lease a member would cost a write a member).
/// - `miccheck_signals`: WebRTC signals too large for a notification (its payload holds 8,000 bytes), kept
///   until the receiving node takes them, or a minute.
///
/// Every change is one function call, so one transaction: it locks the call's row, bumps its version,
/// changes the member and `pg_notify`s the delta with its version on ``channel``. PostgreSQL delivers
/// notifications in commit order, and the row lock commits a call's versions in order, so a listener
/// sees each call's versions one by one, and a gap means it missed something.
enum PostgresSchema {
    static let channel = "miccheck_presence"
    /// The advisory lock keys (arbitrary, MicCheck's own): the schema's installation, the reaper.
    static let installLock = 0x4D69_6343_6B01
    static let reaperLock = 0x4D69_6343_6B02

    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS miccheck_calls (
            id text PRIMARY KEY,
            version bigint NOT NULL,
            touched timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS miccheck_members (
            call text NOT NULL REFERENCES miccheck_calls (id) ON DELETE CASCADE,
            id text NOT NULL,
            node text NOT NULL,
            name text NOT NULL,
            audio boolean NOT NULL,
            video boolean NOT NULL,
            speaking boolean NOT NULL,
            seq bigint NOT NULL,
            PRIMARY KEY (call, id)
        )
        """,
        "CREATE INDEX IF NOT EXISTS miccheck_members_node ON miccheck_members (node)",
        """
        CREATE TABLE IF NOT EXISTS miccheck_nodes (
            node text PRIMARY KEY,
            lease_until timestamptz NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS miccheck_nodes_lease ON miccheck_nodes (lease_until)",
        """
        CREATE TABLE IF NOT EXISTS miccheck_signals (
            id bigserial PRIMARY KEY,
            payload text NOT NULL,
            created timestamptz NOT NULL DEFAULT now()
        )
        """,
        // The delta every listener receives.
        """
        CREATE OR REPLACE FUNCTION miccheck_member_json(m miccheck_members) RETURNS json LANGUAGE sql IMMUTABLE AS $$
            SELECT json_build_object('id', m.id, 'name', m.name, 'audio', m.audio, 'video', m.video, 'speaking', m.speaking)
        $$
        """,
        // A node's lease: made at start, renewed every third of it; returns how many members the tables
        // hold for the node (fewer than it holds itself: some were reaped while it was cut off).
        """
        CREATE OR REPLACE FUNCTION miccheck_renew(p_node text, p_lease double precision) RETURNS bigint LANGUAGE sql AS $$
            INSERT INTO miccheck_nodes AS n (node, lease_until) VALUES (p_node, now() + make_interval(secs => p_lease))
                ON CONFLICT (node) DO UPDATE SET lease_until = EXCLUDED.lease_until;
            SELECT count(*) FROM miccheck_members WHERE node = p_node;
        $$
        """,
        // Joins, or replaces a member (a node's resync after an outage): nothing is published when the
        // member is already there as it is.
        """
        CREATE OR REPLACE FUNCTION miccheck_join(p_call text, p_id text, p_node text, p_name text, p_audio boolean,
                                                 p_video boolean, p_speaking boolean)
        RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            v bigint;
            old miccheck_members;
            m miccheck_members;
        BEGIN
            INSERT INTO miccheck_calls AS c (id, version) VALUES (p_call, 0)
                ON CONFLICT (id) DO UPDATE SET touched = now() RETURNING c.version INTO v;
            SELECT * INTO old FROM miccheck_members WHERE call = p_call AND id = p_id;
            IF FOUND AND (old.node, old.name, old.audio, old.video, old.speaking)
                       = (p_node, p_name, p_audio, p_video, p_speaking) THEN
                RETURN v;
            END IF;
            v := v + 1;
            UPDATE miccheck_calls SET version = v WHERE id = p_call;
            INSERT INTO miccheck_members AS x (call, id, node, name, audio, video, speaking, seq)
                VALUES (p_call, p_id, p_node, p_name, p_audio, p_video, p_speaking, v)
                ON CONFLICT (call, id) DO UPDATE SET node = EXCLUDED.node, name = EXCLUDED.name, audio = EXCLUDED.audio,
                    video = EXCLUDED.video, speaking = EXCLUDED.speaking
                RETURNING * INTO m;
            PERFORM pg_notify('miccheck_presence', json_build_object('call', p_call, 'v', v,
                'kind', CASE WHEN old.id IS NULL THEN 'joined' ELSE 'updated' END, 'member', miccheck_member_json(m))::text);
            RETURN v;
        END $$
        """,
        // A member's toggles or speaking: nothing when it is not in the call or nothing changed.
        """
        CREATE OR REPLACE FUNCTION miccheck_update(p_call text, p_id text, p_name text, p_audio boolean, p_video boolean,
                                                   p_speaking boolean)
        RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            v bigint;
            m miccheck_members;
        BEGIN
            SELECT version INTO v FROM miccheck_calls WHERE id = p_call FOR UPDATE;
            IF NOT FOUND THEN RETURN NULL; END IF;
            UPDATE miccheck_members SET name = p_name, audio = p_audio, video = p_video, speaking = p_speaking
                WHERE call = p_call AND id = p_id
                  AND (name, audio, video, speaking) IS DISTINCT FROM (p_name, p_audio, p_video, p_speaking)
                RETURNING * INTO m;
            IF NOT FOUND THEN RETURN NULL; END IF;
            v := v + 1;
            UPDATE miccheck_calls SET version = v, touched = now() WHERE id = p_call;
            PERFORM pg_notify('miccheck_presence', json_build_object('call', p_call, 'v', v, 'kind', 'updated',
                'member', miccheck_member_json(m))::text);
            RETURN v;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION miccheck_leave(p_call text, p_id text) RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            v bigint;
        BEGIN
            SELECT version INTO v FROM miccheck_calls WHERE id = p_call FOR UPDATE;
            IF NOT FOUND THEN RETURN NULL; END IF;
            DELETE FROM miccheck_members WHERE call = p_call AND id = p_id;
            IF NOT FOUND THEN RETURN NULL; END IF;
            v := v + 1;
            UPDATE miccheck_calls SET version = v, touched = now() WHERE id = p_call;
            PERFORM pg_notify('miccheck_presence', json_build_object('call', p_call, 'v', v, 'kind', 'left', 'id', p_id)::text);
            RETURN v;
        END $$
        """,
        // A node's members all leave, each as above, and its lease goes: a node's graceful shutdown.
        """
        CREATE OR REPLACE FUNCTION miccheck_node_leave(p_node text) RETURNS integer LANGUAGE plpgsql AS $$
        DECLARE
            r record;
            n integer := 0;
        BEGIN
            FOR r IN SELECT call, id FROM miccheck_members WHERE node = p_node ORDER BY call, id LOOP
                IF miccheck_leave(r.call, r.id) IS NOT NULL THEN n := n + 1; END IF;
            END LOOP;
            DELETE FROM miccheck_nodes WHERE node = p_node;
            RETURN n;
        END $$
        """,
        // The reaper (any node may run it; one at a time): the members of nodes whose lease ran out leave,
        // so that a node that died leaves nobody "speaking"; then the node's row goes. After the database itself restarted it waits `p_grace`
        // seconds, so that every node has had the time to reconnect and renew before anyone is reaped.
        // Also drops signals nobody took and calls that have been empty for a day.
        """
        CREATE OR REPLACE FUNCTION miccheck_reap(p_grace double precision) RETURNS integer LANGUAGE plpgsql AS $$
        DECLARE
            r record;
            n integer := 0;
        BEGIN
            IF NOT pg_try_advisory_xact_lock(\(reaperLock)) THEN RETURN 0; END IF;
            IF now() - pg_postmaster_start_time() < make_interval(secs => p_grace) THEN RETURN 0; END IF;
            FOR r IN SELECT m.call, m.id FROM miccheck_nodes d JOIN miccheck_members m ON m.node = d.node
                     WHERE d.lease_until < now() ORDER BY m.call, m.id LOOP
                IF miccheck_leave(r.call, r.id) IS NOT NULL THEN n := n + 1; END IF;
            END LOOP;
            DELETE FROM miccheck_nodes WHERE lease_until < now();
            DELETE FROM miccheck_signals WHERE created < now() - interval '1 minute';
            DELETE FROM miccheck_calls c WHERE touched < now() - interval '1 day'
                AND NOT EXISTS (SELECT 1 FROM miccheck_members m WHERE m.call = c.id);
            RETURN n;
        END $$
        """,
    ]
}
