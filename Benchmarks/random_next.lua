-- wrk script for datasette.sh: every request asks for the page after a random row, so neither
-- server can answer from a cache of one URL. The URL is BENCH_PREFIX .. N .. BENCH_SUFFIX with N
-- uniform in [0, BENCH_MAX_ROW]; each wrk thread seeds its own generator (its own Lua state).
local prefix = os.getenv("BENCH_PREFIX")
local suffix = os.getenv("BENCH_SUFFIX") or ""
local max_row = tonumber(os.getenv("BENCH_MAX_ROW"))

local counter = 0
function setup(thread)
    counter = counter + 1
    thread:set("seed", counter)
end

function init(args)
    math.randomseed(os.time() * 1000 + seed)
end

function request()
    return wrk.format("GET", prefix .. math.random(0, max_row) .. suffix)
end
