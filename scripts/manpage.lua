-- pandoc filter for the man pages made from docs/*.md (Makefile, target man).
--
-- Table column widths: pandoc derives them from the Markdown's dashes, and
-- tbl(1) then sets the table wider than an 80-column terminal. Here every
-- column but the last is as wide as its longest cell, and the last (the
-- prose) takes the rest of a 78-column page less the indent and the gaps.
local page = 70 -- pandoc's man writer: a width of 1.0 is 70 ens

local function rows_of(table)
  local rows = {}
  for _, row in ipairs(table.head.rows) do rows[#rows + 1] = row end
  for _, body in ipairs(table.bodies) do
    for _, row in ipairs(body.body) do rows[#rows + 1] = row end
  end
  return rows
end

function Table(table)
  local n = #table.colspecs
  if n < 2 then return nil end
  local longest = {}
  for i = 1, n do longest[i] = 1 end
  for _, row in ipairs(rows_of(table)) do
    for i, cell in ipairs(row.cells) do
      local length = utf8.len(pandoc.utils.stringify(cell.contents)) or 1
      if i < n and length > longest[i] then longest[i] = length end
    end
  end
  local available = 78 - 7 - 3 * (n - 1)
  local used = 0
  for i = 1, n - 1 do
    local width = math.min(longest[i], math.floor(available / n))
    table.colspecs[i] = {table.colspecs[i][1], width / page}
    used = used + width
  end
  table.colspecs[n] = {table.colspecs[n][1], (available - used) / page}
  return table
end
