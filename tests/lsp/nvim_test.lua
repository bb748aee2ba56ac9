-- `boxlint lsp` in Neovim's built-in client (0.7: vim.lsp.start_client), headless: a template,
-- a Dockerfile fragment and a Python file are opened, their diagnostics arrive, a code action is
-- applied to each buffer (Neovim sends the edit back to the server as an incremental change)
-- and the finding clears.
--
-- run: BOXLINT=path/to/boxlint DIR=scratch-dir nvim --headless -u NONE -i NONE -n \
--        -c "luafile tests/lsp/nvim_test.lua"          (exit 0: passed)
local bin, dir = os.getenv("BOXLINT"), os.getenv("DIR")
local failures = 0
local function check(name, ok, info)
  io.stdout:write((ok and "ok   " or "FAIL ") .. name ..
                  ((not ok and info) and (": " .. vim.inspect(info)) or "") .. "\n")
  if not ok then failures = failures + 1 end
end

local files = {
  {"template.json", '{"name": "t", "commands": ["WROKDIR /srv", "RUN true"], "cpu_count": 2, "memory_mb": 4096}\n',
   "unknown-instruction"},
  {"setup.Dockerfile", "RUN true\nWROKDIR /srv\n", "unknown-instruction"},
  {"app.py", 'client.code_interpreter.templates.update("t", commands=[\n    "pip install x",\n])\n',
   "unknown-instruction"},
}
for _, f in ipairs(files) do
  local h = assert(io.open(dir .. "/" .. f[1], "w"))
  h:write(f[2])
  h:close()
end

local client_id = vim.lsp.start_client({
  name = "boxlint",
  cmd = {bin, "lsp", "--debounce", "20"},
  root_dir = dir,
})
check("the client started", client_id ~= nil)

local function diags(buf, code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.user_data and d.user_data.lsp and d.user_data.lsp.code == code then table.insert(out, d) end
  end
  return out
end

for _, f in ipairs(files) do
  vim.cmd("edit " .. vim.fn.fnameescape(dir .. "/" .. f[1]))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  local got = vim.wait(10000, function() return #diags(buf, f[3]) > 0 end, 20)
  check(f[1] .. ": " .. f[3] .. " shown", got, vim.diagnostic.get(buf))
  if got then
    local d = diags(buf, f[3])[1]
    local client = vim.lsp.get_client_by_id(client_id)
    local params = {
      textDocument = {uri = vim.uri_from_bufnr(buf)},
      range = {start = {line = d.lnum, character = d.col},
               ["end"] = {line = d.end_lnum, character = d.end_col}},
      context = {diagnostics = {d.user_data.lsp}, only = {"quickfix"}},
    }
    local res = client.request_sync("textDocument/codeAction", params, 10000, buf)
    local actions = res and res.result or {}
    check(f[1] .. ": a quick fix offered", #actions > 0 and actions[1].kind == "quickfix", res)
    if #actions > 0 then
      vim.lsp.util.apply_workspace_edit(actions[1].edit, client.offset_encoding)
      local cleared = vim.wait(10000, function() return #diags(buf, f[3]) == 0 end, 20)
      check(f[1] .. ": the code action applied, the finding cleared", cleared,
            {vim.api.nvim_buf_get_lines(buf, 0, -1, false), vim.diagnostic.get(buf)})
    end
  end
end

vim.lsp.stop_client(client_id)
vim.wait(2000, function() return vim.lsp.client_is_stopped(client_id) end, 20)
io.stdout:write(failures == 0 and "OK\n" or ("FAILED: " .. failures .. "\n"))
vim.cmd(failures == 0 and "qall!" or "cquit 1")
