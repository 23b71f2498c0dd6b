<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="room" tilewidth="16" tileheight="16" tilecount="6" columns="3">
 <image source="room.png" width="48" height="32"/>
 <tile id="0" class="floor"/>
 <tile id="1" class="wall"/>
 <tile id="2">
  <properties>
   <property name="terrain" value="water"/>
  </properties>
 </tile>
 <tile id="3" class="swamp"/>
 <tile id="5" class="obstacle"/>
</tileset>
