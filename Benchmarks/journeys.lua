-- wrk script: planJourney (GET /api/v1/journeys) between random pairs of stops at random
-- times 06:00-22:00 on one day, as onward-bench's planner figures choose them.
-- Environment: STOPS, a file of stop IDs (one a line, stops some service calls at);
-- JOURNEY_DATE (YYYY-MM-DD). Each wrk thread draws its own fixed sequence, so runs compare.
local stops = {}
local date = os.getenv("JOURNEY_DATE") or "2025-11-06"
local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("id", threads)
end

function init(args)
    for line in io.lines(os.getenv("STOPS")) do stops[#stops + 1] = line end
    math.randomseed(1000 + (id or 0))
end

function request()
    local from = stops[math.random(#stops)]
    local to = from
    while to == from do to = stops[math.random(#stops)] end
    local seconds = math.random(6 * 3600, 22 * 3600 - 1)
    local path = string.format("/api/v1/journeys?from=%s&to=%s&date=%s&time=%02d:%02d",
        from, to, date, math.floor(seconds / 3600), math.floor(seconds % 3600 / 60))
    return wrk.format(nil, path)
end
