# A command for 2 x H200 (TP 2), shaped as SGLang's configuration generator prints one: the weights
# (about 252 GB) do not fit 0.8 of two 141 GB GPUs, which pre-flight must say before any pull.
python3 -m sglang.launch_server \
  --model-path MiniMaxAI/MiniMax-M3.1-Flash \
  --tp 2 \
  --mem-fraction-static 0.8 \
  --trust-remote-code \
  --reasoning-parser minimax-m3 \
  --host 0.0.0.0 --port 30000
