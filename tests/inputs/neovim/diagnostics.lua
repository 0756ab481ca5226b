-- Headless Neovim (0.7+) driving `forex lsp`: open a .fe file with an error, wait for
-- the server's diagnostics, print them, quit.
local forex = os.getenv("FOREX_BIN")
local file = os.getenv("FE_FILE")
vim.cmd("edit " .. file)
local client = vim.lsp.start_client({
  name = "forex",
  cmd = { forex, "lsp" },
  root_dir = vim.fn.getcwd(),
})
vim.lsp.buf_attach_client(0, client)
local ok = vim.wait(10000, function() return #vim.diagnostic.get(0) > 0 end, 100)
for _, d in ipairs(vim.diagnostic.get(0)) do
  print(string.format("%d:%d-%d:%d severity=%d code=%s source=%s %s", d.lnum + 1, d.col + 1,
    d.end_lnum + 1, d.end_col + 1, d.severity, tostring(d.code), tostring(d.source),
    (d.message:gsub("\n", " | "))))
end
if not ok then print("no diagnostics within 10 s") end
vim.cmd("qa!")
