import Foundation
import PostgresNIO
import Synchronization

/// A PostgreSQL server of the test's own: `initdb` into a new temporary folder (as the
/// `postgres` user when the tests run as root, as CI does), listening on 127.0.0.1 at a free
/// port, with its socket in that folder. ``withPostgres(_:)`` starts one and always stops
/// it and removes its folder.
final class PostgresServer: Sendable {
    let folder: String
    let port: Int
    private var data: String { folder + "/data" }

    private init(folder: String, port: Int) {
        self.folder = folder
        self.port = port
    }

    /// A new server's cluster, made and started; first, the servers of test processes that
    /// died without stopping theirs (a crash) are stopped and removed.
    static func start() throws -> PostgresServer {
        sweepOrphans()
        var template = Array("/tmp/actionpipe-pg-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) })
        else { throw ServerError("mkdtemp failed") }
        let folder = String(cString: made)
        let server = PostgresServer(folder: folder, port: try freePort())
        do {
            try "\(getpid())".write(
                toFile: folder + "/owner.pid", atomically: true, encoding: .utf8)
            if getuid() == 0 { try run("/bin/chown", ["postgres:postgres", folder]) }
            try server.asPostgres(
                tool("initdb"),
                ["-D", server.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
            try server.startServer()
        } catch {
            server.destroy()
            throw error
        }
        return server
    }

    /// Starts the cluster (again).
    func startServer() throws {
        let options =
            "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off "
            + "-c synchronous_commit=off -c max_connections=50"
        try asPostgres(
            Self.tool("pg_ctl"),
            ["-D", data, "-l", folder + "/log", "-w", "-t", "60", "-o", options, "start"])
    }

    /// Stops the server at once (`-m fast`: sessions are ended, as when a server dies).
    func stopServer() throws {
        try asPostgres(Self.tool("pg_ctl"), ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"])
    }

    /// Stops the server if it runs and removes its folder.
    func destroy() {
        try? stopServer()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops and removes the servers in `/tmp` whose test process is gone.
    private static func sweepOrphans() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix("actionpipe-pg-") {
            let folder = "/tmp/" + name
            guard let text = try? String(contentsOfFile: folder + "/owner.pid", encoding: .utf8),
                let owner = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                kill(owner, 0) != 0, errno == ESRCH
            else { continue }
            PostgresServer(folder: folder, port: 0).destroy()
        }
    }

    /// A connection configuration for the server.
    var configuration: PostgresConnection.Configuration {
        .init(
            host: "127.0.0.1", port: port, username: "postgres", password: nil,
            database: "postgres", tls: .disable)
    }

    /// Runs `psql` against the server with `sql`.
    func psql(_ sql: String) throws {
        try Self.run(
            "/usr/bin/env",
            ["psql", "-X", "-q", "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-c", sql])
    }

    private func asPostgres(_ tool: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + arguments)
        } else {
            try Self.run(tool, arguments)
        }
    }

    /// The PostgreSQL tool `name`: on the `PATH`, else in Debian's folder of the newest
    /// version installed (Debian puts neither `initdb` nor `pg_ctl` on the `PATH`).
    private static func tool(_ name: String) -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let versions =
            (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))
            ?? []
        let debian = versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
            .map { "/usr/lib/postgresql/\($0)/bin/\(name)" }
        let candidates = path.split(separator: ":").map { "\($0)/\(name)" } + debian
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? name
    }

    /// Runs `executable` and waits for it, its output to a file read on failure.
    ///
    /// `posix_spawn` and `waitpid`, not Foundation's `Process`: `pg_ctl start` leaves the
    /// server running with what it inherited, and `Process` then never sees the end of the
    /// `pg_ctl` it started. The child gets no descriptor of this process past the standard
    /// three.
    private static func run(_ executable: String, _ arguments: [String]) throws {
        let outputPath = NSTemporaryDirectory() + "actionpipe-pg-run-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ServerError("cannot start \(executable): \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // Exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw ServerError(
                "\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
    }

    /// A loopback port nothing listens on now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0
                    && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { throw ServerError("bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` with a new server, stopped and removed afterwards, whether `body` returns or
/// throws.
func withPostgres(_ body: (PostgresServer) async throws -> Void) async throws {
    let server = try PostgresServer.start()
    do {
        try await body(server)
    } catch {
        server.destroy()
        throw error
    }
    server.destroy()
}
