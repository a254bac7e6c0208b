-- lab/probe/clientcpu/clientcpu.lua: one statement kind of sysbench's OLTP mixes per event, so
-- sysbench's own CPU time (and mariadbd's) per statement of that kind can be measured
-- (docs/cpu-model.md section 5; run by lab/probe/clientcpu/probe.sh).
--
-- The statements are oltp_common.lua's own prepared statements (sysbench 1.0.20, the file the
-- mixes use), with parameters bound as its execute_* functions bind them: this script only
-- chooses which of them an event runs. KIND (environment) is one of
--   empty            an event that does nothing (sysbench's event loop alone)
--   begin_commit     BEGIN; COMMIT
--   point_select, simple_range, sum_range, order_range, distinct_range,
--   index_update, non_index_update, delete_insert
--                    BEGIN; N statements of that kind; COMMIT (N from the usual options:
--                    --point_selects, --simple_ranges, ..., --delete_inserts counts pairs)

require("oltp_common")

local kind = os.getenv("KIND") or "point_select"

local prep = {
   point_select = prepare_point_selects,
   simple_range = prepare_simple_ranges,
   sum_range = prepare_sum_ranges,
   order_range = prepare_order_ranges,
   distinct_range = prepare_distinct_ranges,
   index_update = prepare_index_updates,
   non_index_update = prepare_non_index_updates,
   delete_insert = prepare_delete_inserts,
}
local exec = {
   point_select = function() execute_point_selects() end,
   simple_range = function() execute_simple_ranges() end,
   sum_range = function() execute_sum_ranges() end,
   order_range = function() execute_order_ranges() end,
   distinct_range = function() execute_distinct_ranges() end,
   index_update = function() execute_index_updates() end,
   non_index_update = function() execute_non_index_updates() end,
   delete_insert = function() execute_delete_inserts() end,
}

if kind ~= "empty" and kind ~= "begin_commit" and prep[kind] == nil then
   error("clientcpu.lua: unknown KIND " .. kind)
end

function prepare_statements()
   if kind == "empty" then return end
   prepare_begin()
   prepare_commit()
   if prep[kind] then prep[kind]() end
end

function event()
   if kind == "empty" then return end
   begin()
   if exec[kind] then exec[kind]() end
   commit()
end
