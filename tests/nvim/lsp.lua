-- Neovim's built-in LSP client against `flinklint server`, run headless by tests/editors.rs:
--   nvim --headless --clean -c "luafile tests/nvim/lsp.lua"
-- with FLINKLINT_BIN (the binary) and PROJECT (a folder holding catalog/V1__orders.sql, its
-- LIKE child catalog/V2__orders_copy.sql and job.sql). Works with Neovim 0.7 (Debian 12) and
-- later. Prints "OK" and exits 0 when every check passes; otherwise prints the failure and
-- exits 1.

local bin = assert(os.getenv("FLINKLINT_BIN"), "FLINKLINT_BIN")
local root = assert(os.getenv("PROJECT"), "PROJECT")
local WAIT = 30000

local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end

local function codes(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out, tostring(d.code))
  end
  table.sort(out)
  return table.concat(out, ",")
end

local function wait_codes(bufnr, want, what)
  local ok = vim.wait(WAIT, function()
    return codes(bufnr) == want
  end, 20)
  if not ok then
    fail(what .. ": expected [" .. want .. "], got [" .. codes(bufnr) .. "]")
  end
end

local function run()
  local client_id = vim.lsp.start_client({
    name = "flinklint",
    cmd = { bin, "server" },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = "project" } },
  })
  if not client_id then
    return fail("the server did not start")
  end

  local function open(rel)
    vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. rel))
    local bufnr = vim.api.nvim_get_current_buf()
    vim.lsp.buf_attach_client(bufnr, client_id)
    return bufnr
  end

  -- Diagnostics on open: the child's clash with its LIKE parent (another file).
  local child = open("catalog/V2__orders_copy.sql")
  wait_codes(child, "CL002", "diagnostics of the LIKE child on open")

  -- Hover on the LIKE parent's name: its expanded definition and columns.
  local line = vim.api.nvim_buf_get_lines(child, 0, 1, false)[1]
  local col = line:find("LIKE orders", 1, true) + 5
  local results = vim.lsp.buf_request_sync(child, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(child) },
    position = { line = 0, character = col },
  }, WAIT)
  local hover = ""
  for _, r in pairs(results or {}) do
    if r.result and r.result.contents then
      hover = r.result.contents.value or ""
    end
  end
  if not hover:find("CREATE TABLE `default_catalog`.`default_database`.`orders`", 1, true)
    or not hover:find("| amount | DOUBLE | physical |", 1, true) then
    return fail("hover on the LIKE parent: " .. hover)
  end

  -- Edit the parent (unsaved): its column is renamed, the child's clash goes away; back, it
  -- returns.
  local parent = open("catalog/V1__orders.sql")
  vim.api.nvim_buf_set_lines(parent, 0, 1, false,
    { "CREATE TABLE orders (order_id INT) WITH ('connector' = 'datagen');" })
  wait_codes(child, "", "the child's diagnostics after the parent's edit")
  vim.api.nvim_buf_set_lines(parent, 0, 1, false,
    { "CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'datagen');" })
  wait_codes(child, "CL002", "the child's diagnostics after the parent's edit was undone")

  -- A quick fix: TB001's (add NOT ENFORCED), applied as the client applies workspace edits.
  local job = open("job.sql")
  wait_codes(job, "SY003,TB001", "diagnostics of job.sql")
  local tb001
  for _, d in ipairs(vim.diagnostic.get(job)) do
    if d.code == "TB001" then
      tb001 = d
    end
  end
  results = vim.lsp.buf_request_sync(job, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(job) },
    range = {
      start = { line = tb001.lnum, character = tb001.col },
      ["end"] = { line = tb001.end_lnum, character = tb001.end_col },
    },
    context = { diagnostics = {}, only = { "quickfix" } },
  }, WAIT)
  local action
  for _, r in pairs(results or {}) do
    for _, a in ipairs(r.result or {}) do
      if action == nil and a.isPreferred and a.title:find("TB001", 1, true) then
        action = a
      end
    end
  end
  if action == nil then
    return fail("no preferred quick fix for TB001")
  end
  vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
  local text = table.concat(vim.api.nvim_buf_get_lines(job, 0, -1, false), "\n")
  if not text:find("NOT ENFORCED", 1, true) then
    return fail("the quick fix was not applied: " .. text)
  end
  wait_codes(job, "SY003", "diagnostics of job.sql after the quick fix")

  vim.lsp.stop_client(client_id)
  print("OK")
  io.stdout:write("OK\n")
  vim.cmd("qall!")
end

local ok, err = pcall(run)
if not ok then
  fail(tostring(err))
end
