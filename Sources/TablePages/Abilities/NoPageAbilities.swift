import TableKit

/// The abilities of a plain root: none (every ``PageSource`` default).
struct NoPageAbilities: PageSource {}
