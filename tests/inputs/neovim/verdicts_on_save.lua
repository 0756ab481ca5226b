-- Headless Neovim: open a .fe file, save it, wait for forex's verdicts, print them.
local forex = os.getenv("FOREX_BIN")
vim.cmd("edit " .. os.getenv("FE_FILE"))
local client = vim.lsp.start_client({ name = "forex", cmd = { forex, "lsp" }, root_dir = vim.fn.getcwd() })
vim.lsp.buf_attach_client(0, client)
vim.wait(3000, function() return vim.lsp.get_client_by_id(client).initialized end, 50)
vim.cmd("write")
local ok = vim.wait(20000, function() return #vim.diagnostic.get(0) >= 4 end, 100)
for _, d in ipairs(vim.diagnostic.get(0)) do
  print(string.format("%d:%d severity=%d code=%s %s", d.lnum + 1, d.col + 1, d.severity,
    tostring(d.code), (d.message:gsub("\n", " | "))))
end
if not ok then print("fewer than 4 diagnostics within 20 s") end
vim.cmd("qa!")
