/// What a pipe caches for its calls: its chain and that chain's snapshot, guarded by the
/// pipe's own lock (`ActionPipe._link`), so a call touches no lock shared with other pipes.
///
/// The snapshot is current while its version equals its chain's (see ``_Chain/version``).
/// When the pipe's chain is appended to another, the old chain's version moves on too, so
/// the pipe's next call fetches the new chain.
///
/// The snapshot is held weakly: its chain holds the only lasting strong reference, so a
/// change, which drops that one, releases the replaced snapshot (and the handlers only it
/// held) at once, not at each pipe's next call. A call that loads it gets a strong
/// reference, which it releases after unlocking.
@usableFromInline
struct _PipeLink {
    /// The chain the snapshot was fetched from. Strong: with the pipe's `_chain`, it keeps
    /// the chain alive while the pipe lives.
    @usableFromInline var chain: _Chain
    /// The cached snapshot, or `nil` before the first call and once it is replaced.
    @usableFromInline weak var snapshot: _Snapshot?

    init(chain: _Chain, snapshot: _Snapshot? = nil) {
        self.chain = chain
        self.snapshot = snapshot
    }
}
